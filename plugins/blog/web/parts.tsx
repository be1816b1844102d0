import type { ReactNode } from 'react';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';
import { CARD, CardGrid, GridItem, MoreLink, Section, SectionHeader, usePageRow } from '../../../web/storefront/blocks.js';
import { targets, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { useWords } from '../../../web/storefront/words.js';

export { CardGrid, GridItem, MoreLink, Section, SectionHeader, usePageRow };

/** the blog's page paths (spec §2) */
export const articlePath = (a: Expanded) => `/blog/articles/${String(a.slug ?? '')}`;
export const categoryPath = (c: Expanded) => `/blog/categories/${String(c.slug ?? '')}`;

/** an article as a card: title, subtitle and 'Read more' */
export function ArticleCard({ article }: { article: Expanded }) {
  const t = useT();
  const title = t(article.title) || String(article.slug ?? '');
  const w = useWords();
  return (
    <article className={CARD}>
      <h3 className="card-title">{title}</h3>
      {t(article.subtitle) && <p className="mt-2 flex-1 text-slate-600">{t(article.subtitle)}</p>}
      <MoreLink className="mt-6 self-start" to={articlePath(article)} label={title}>{w('readMore')}</MoreLink>
    </article>
  );
}

/** a category as a card: title, subtitle and 'More' */
export function CategoryCard({ category }: { category: Expanded }) {
  const t = useT();
  const title = t(category.title) || String(category.slug ?? '');
  return (
    <article className={CARD}>
      <h3 className="card-title">{title}</h3>
      {t(category.subtitle) && <p className="mt-2 flex-1 text-slate-600">{t(category.subtitle)}</p>}
      <MoreLink className="mt-6 self-start" to={categoryPath(category)} label={title} />
    </article>
  );
}

/** an article's title and subtitle, as the page's heading */
export function ArticleHeading({ article }: { article: Expanded }) {
  const t = useT();
  return (
    <header className="border-b border-slate-200 pb-8">
      <h1 className="text-4xl font-bold tracking-tight text-slate-900 lg:text-5xl">{t(article.title) || String(article.slug ?? '')}</h1>
      {t(article.subtitle) && <p className="mt-4 text-xl text-slate-600">{t(article.subtitle)}</p>}
    </header>
  );
}

/** an article's files (images, videos, documents) through the file-storage module's variants */
export function ArticleFiles({ article }: { article: Expanded }) {
  const files = targets(article, 'articlesToFileStorageModuleFiles', 'fileStorageModuleFile');
  if (!files.length) return null;
  return (
    <div className="mt-10 grid grid-cols-1 gap-6 sm:grid-cols-2">
      {files.map((f) => (
        <Variant key={f.id} module="file-storage" entity="file" row={f} />
      ))}
    </div>
  );
}

/** the body of an article: its rich-text description */
export function ArticleBody({ article }: { article: Expanded }) {
  const t = useT();
  const description = t(article.description);
  return description ? <RichTextView value={description} className="mt-8 text-lg leading-relaxed text-slate-700" /> : null;
}

/** an article page's column */
export function ArticleColumn({ row, children }: { row: Expanded; children: ReactNode }) {
  return (
    <Section row={row}>
      <article className="mx-auto max-w-3xl">{children}</article>
    </Section>
  );
}

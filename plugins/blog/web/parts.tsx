import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';
import { targets, usePage, useHref, useT, Variant, type Expanded } from '../../../web/storefront/context.js';

/** the blog's page paths (spec §2) */
export const articlePath = (a: Expanded) => `/blog/articles/${String(a.slug ?? '')}`;
export const categoryPath = (c: Expanded) => `/blog/categories/${String(c.slug ?? '')}`;

/** a widget's width and vertical rhythm */
export function Section({ row, children, className }: { row: Expanded; children: ReactNode; className?: string }) {
  return (
    <section className={cn('py-12 lg:py-16', row.className as string, className)}>
      <div className="mx-auto max-w-7xl px-4">{children}</div>
    </section>
  );
}

/** a widget's own title, subtitle and description, when it has them */
export function SectionHeader({ row }: { row: Expanded }) {
  const t = useT();
  const title = t(row.title);
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  if (!title && !subtitle && !description) return null;
  return (
    <header className="mb-8 max-w-3xl lg:mb-12">
      {title && <h2 className="text-3xl font-bold tracking-tight text-slate-900 lg:text-4xl">{title}</h2>}
      {subtitle && <p className="mt-3 text-lg text-slate-600">{subtitle}</p>}
      {description && <RichTextView value={description} className="mt-4 text-slate-600" />}
    </header>
  );
}

const CARD = 'group flex h-full flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md';

/** a link that reads as a call to action, with an arrow that moves on hover */
export function MoreLink({ to, children }: { to: string; children: ReactNode }) {
  const href = useHref();
  return (
    <a href={href(to)} className="mt-6 inline-flex items-center gap-1.5 self-start text-sm font-semibold text-blue-700 hover:text-blue-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600">
      {children}
      <ArrowRight aria-hidden className="h-4 w-4 transition-transform group-hover:translate-x-0.5" />
    </a>
  );
}

/** an article as a card: title, subtitle and 'Read more' */
export function ArticleCard({ article }: { article: Expanded }) {
  const t = useT();
  return (
    <article className={CARD}>
      <h3 className="text-xl font-semibold text-slate-900">{t(article.title) || String(article.slug ?? '')}</h3>
      {t(article.subtitle) && <p className="mt-2 flex-1 text-slate-600">{t(article.subtitle)}</p>}
      <MoreLink to={articlePath(article)}>Read more</MoreLink>
    </article>
  );
}

/** a category as a card: title, subtitle and 'More' */
export function CategoryCard({ category }: { category: Expanded }) {
  const t = useT();
  return (
    <article className={CARD}>
      <h3 className="text-xl font-semibold text-slate-900">{t(category.title) || String(category.slug ?? '')}</h3>
      {t(category.subtitle) && <p className="mt-2 flex-1 text-slate-600">{t(category.subtitle)}</p>}
      <MoreLink to={categoryPath(category)}>More</MoreLink>
    </article>
  );
}

/** the responsive card grid: 1 column, 2 on md, 3 on lg */
export function CardGrid({ children, label }: { children: ReactNode; label?: string }) {
  return <div role="list" aria-label={label} className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">{children}</div>;
}

export const GridItem = ({ children }: { children: ReactNode }) => <div role="listitem">{children}</div>;

/** the row the page is about (params['blog.article'], …) if there is one, else the widget's first */
export function usePageRow(param: string, widget: Expanded, relation: string, end: string): Expanded | undefined {
  const { params } = usePage();
  return params[param] ?? targets(widget, relation, end)[0];
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

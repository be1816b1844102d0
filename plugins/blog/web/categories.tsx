import { CardListSection, ShownCards } from '../../../web/storefront/blocks.js';
import { targets, usePage, useHref, useT, type Expanded } from '../../../web/storefront/context.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';
import { ArticleCard, CardGrid, CategoryCard, GridItem, Section, SectionHeader, categoryPath, usePageRow } from './parts.js';
import { useWords } from '../../../web/storefront/words.js';

/** 'category-list-default': the widget's categories as cards with 'More' */
export function CategoryListDefault({ row }: { row: Expanded }) {
  const w = useWords();
  return <CardListSection row={row} relation="widgetsToCategories" end="category" label={w('categories')} card={(c) => <CategoryCard category={c} />} />;
}

/** 'category-list-button-default': the categories as a row of buttons; the current page's category is marked */
export function CategoryListButtonDefault({ row }: { row: Expanded }) {
  const t = useT();
  const w = useWords();
  const href = useHref();
  const current = usePage().params['blog.category']?.id;
  const categories = targets(row, 'widgetsToCategories', 'category');
  if (!categories.length) return null;
  return (
    <Section row={row} padding="py-6 lg:py-8">
      {t(row.title) && <h2 className="mb-4 text-sm font-semibold uppercase tracking-wide text-slate-500">{t(row.title)}</h2>}
      <nav aria-label={t(row.title) || w('categories')}>
        <ul className="flex flex-wrap gap-2">
          {categories.map((c) => {
            const active = c.id === current;
            return (
              <li key={c.id}>
                <a
                  href={href(categoryPath(c))}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'inline-flex h-9 items-center rounded-full border px-4 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
                    active ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100',
                  )}
                >
                  {t(c.title) || String(c.slug ?? '')}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
    </Section>
  );
}

/** 'category-overview-default': the page's category (or the widget's first) and its articles */
export function CategoryOverviewDefault({ row }: { row: Expanded }) {
  const t = useT();
  const w = useWords();
  const category = usePageRow('blog.category', row, 'widgetsToCategories', 'category');
  if (!category) return null;
  return (
    <Section row={row}>
      <header className="mb-10 max-w-3xl">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900 lg:text-5xl">{t(category.title) || String(category.slug ?? '')}</h1>
        {t(category.subtitle) && <p className="mt-4 text-xl text-slate-600">{t(category.subtitle)}</p>}
        {t(category.description) && <RichTextView value={t(category.description)} className="mt-4 text-lg text-slate-600" />}
      </header>
      <ShownCards items={targets(category, 'categoriesToArticles', 'article')} label={t(category.title) || w('articles')} card={(a) => <ArticleCard article={a} />} />
    </Section>
  );
}

import { CardListSection } from '../../../web/storefront/blocks.js';
import { targets, useT, type Expanded } from '../../../web/storefront/context.js';
import { ArticleBody, ArticleCard, ArticleColumn, ArticleFiles, ArticleHeading, CardGrid, GridItem, MoreLink, Section, SectionHeader, usePageRow } from './parts.js';
import { useWords } from '../../../web/storefront/words.js';
import { useBlogWords } from './words.js';

/** 'article-list-default': the widget's title and subtitle, then its articles as cards */
export function ArticleListDefault({ row }: { row: Expanded }) {
  const w = useWords();
  const bw = useBlogWords();
  return <CardListSection row={row} relation="widgetsToArticles" end="article" label={w('articles')} card={(a) => <ArticleCard article={a} />} empty={bw('noArticles')} />;
}

/** the article an overview shows: the page's (params['blog.article']) or the widget's first */
export const useArticle = (row: Expanded) => usePageRow('blog.article', row, 'widgetsToArticles', 'article');

/** 'article-overview-default': one article in full */
export function ArticleOverviewDefault({ row }: { row: Expanded }) {
  const article = useArticle(row);
  if (!article) return null;
  return (
    <ArticleColumn row={row}>
      <ArticleHeading article={article} />
      <ArticleBody article={article} />
      <ArticleFiles article={article} />
    </ArticleColumn>
  );
}

/** a product an article mentions, as a card titled by the product's title */
function ProductCard({ product }: { product: Expanded }) {
  const t = useT();
  const title = t(product.title) || String(product.slug ?? '');
  const w = useBlogWords();
  return (
    <article className="group card">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      {t(product.shortDescription) && <p className="mt-2 flex-1 text-slate-600">{t(product.shortDescription)}</p>}
      {typeof product.slug === 'string' && product.slug && <MoreLink to={`/ecommerce/products/${product.slug}`} label={title}>{w('viewProduct')}</MoreLink>}
    </article>
  );
}

/** 'article-overview-ecommerce-module-product-list-default': the article, then the products it links to */
export function ArticleOverviewProductList({ row }: { row: Expanded }) {
  const article = useArticle(row);
  if (!article) return null;
  const products = targets(article, 'articlesToEcommerceModuleProducts', 'ecommerceModuleProduct');
  const w = useBlogWords();
  return (
    <>
      <ArticleOverviewDefault row={row} />
      {products.length > 0 && (
        <Section row={{ ...row, className: undefined }} className="border-t border-slate-200 bg-slate-50">
          <h2 className="mb-8 text-2xl font-bold tracking-tight text-slate-900">{w('relatedProducts')}</h2>
          <CardGrid label={w('relatedProducts')}>
            {products.map((p) => (
              <GridItem key={p.id}>
                <ProductCard product={p} />
              </GridItem>
            ))}
          </CardGrid>
        </Section>
      )}
    </>
  );
}

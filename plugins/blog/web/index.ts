import { registerLazy } from '../../../web/registry.js';

/**
 * The blog widget's variants (spec §2) under `<module>/widget/<variant>`, each file's code loaded when a page shows
 * one of its variants; the startup module's widget shares them (`registerBlogWidget('startup')`).
 */
export function registerBlogWidget(module: string) {
  const widget = (variant: string) => `${module}/widget/${variant}`;
  registerLazy('plugins/blog/web/articles', () => import('./articles.js'), {
    [widget('default')]: 'ArticleListDefault',
    [widget('article-list-default')]: 'ArticleListDefault',
    [widget('article-overview-default')]: 'ArticleOverviewDefault',
    [widget('article-overview-ecommerce-module-product-list-default')]: 'ArticleOverviewProductList',
  });
  registerLazy('plugins/blog/web/latest', () => import('./latest.js'), { [widget('article-list-latest-default')]: 'ArticleListLatest' });
  registerLazy('plugins/blog/web/private-article', () => import('./private-article.js'), {
    [widget('article-overview-with-private-content-default')]: 'ArticleOverviewPrivate',
  });
  registerLazy('plugins/blog/web/categories', () => import('./categories.js'), {
    [widget('category-list-default')]: 'CategoryListDefault',
    [widget('category-list-button-default')]: 'CategoryListButtonDefault',
    [widget('category-overview-default')]: 'CategoryOverviewDefault',
  });
}

/** the blog module's web variants */
export function registerBlogWeb() {
  registerBlogWidget('blog');
}

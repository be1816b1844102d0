import type { ComponentType } from 'react';
import { register } from '../../../web/registry.js';
import type { Expanded } from '../../../web/storefront/context.js';
import { ArticleListDefault, ArticleOverviewDefault, ArticleOverviewProductList } from './articles.js';
import { ArticleOverviewPrivate } from './private-article.js';
import { ArticleListLatest } from './latest.js';
import { CategoryListButtonDefault, CategoryListDefault, CategoryOverviewDefault } from './categories.js';

/** the blog widget's variants (spec §2); the startup module's widget shares them */
export const BLOG_WIDGET_VARIANTS: Record<string, ComponentType<{ row: Expanded }>> = {
  default: ArticleListDefault,
  'article-list-default': ArticleListDefault,
  'article-list-latest-default': ArticleListLatest,
  'article-overview-default': ArticleOverviewDefault,
  'article-overview-with-private-content-default': ArticleOverviewPrivate,
  'article-overview-ecommerce-module-product-list-default': ArticleOverviewProductList,
  'category-list-default': CategoryListDefault,
  'category-list-button-default': CategoryListButtonDefault,
  'category-overview-default': CategoryOverviewDefault,
};

/** the blog module's web variants */
export function registerBlogWeb() {
  for (const [variant, component] of Object.entries(BLOG_WIDGET_VARIANTS)) register(`blog/widget/${variant}`, component);
}

import { registerBlogWidget } from '../../blog/web/index.js';

/** the startup module's web variants: its widget has the blog widget's variants and draws with the same components */
export function registerStartupWeb() {
  registerBlogWidget('startup');
}

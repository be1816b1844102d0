import { register } from '../../../web/registry.js';
import { BLOG_WIDGET_VARIANTS } from '../../blog/web/index.js';

/** the startup module's web variants: its widget has the blog widget's variants and draws with the same components */
export function registerStartupWeb() {
  for (const [variant, component] of Object.entries(BLOG_WIDGET_VARIANTS)) register(`startup/widget/${variant}`, component);
}

import { registerLazy } from '../../../web/registry.js';

/** the billing module's web variants: its widget's 'default' is its text (title, subtitle, description) as a section */
export function registerBillingWeb() {
  registerLazy('web/storefront/blocks', () => import('../../../web/storefront/blocks.js'), { 'billing/widget/default': 'TextSection' });
}

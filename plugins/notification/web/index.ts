import { registerLazy } from '../../../web/registry.js';

/** the notification module's web variants: its widget's 'default' is its text (title, subtitle, description) as a section */
export function registerNotificationWeb() {
  registerLazy('web/storefront/blocks', () => import('../../../web/storefront/blocks.js'), { 'notification/widget/default': 'TextSection' });
}

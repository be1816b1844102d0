import { register } from '../../../web/registry.js';
import { TextSection } from '../../../web/storefront/blocks.js';

/** the notification module's web variants: its widget's 'default' is its text (title, subtitle, description) as a section */
export function registerNotificationWeb() {
  register('notification/widget/default', TextSection);
}

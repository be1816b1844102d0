import { register } from '../../../web/registry.js';
import { TextSection } from '../../../web/storefront/blocks.js';

/** the agent module's web variants: its widget's 'default' is its text (title, subtitle, description) as a section */
export function registerAgentWeb() {
  register('agent/widget/default', TextSection);
}

import { registerLazy } from '../../../web/registry.js';

/** the agent module's web variants: its widget's 'default' is its text (title, subtitle, description) as a section */
export function registerAgentWeb() {
  registerLazy('web/storefront/blocks', () => import('../../../web/storefront/blocks.js'), { 'agent/widget/default': 'TextSection' });
}

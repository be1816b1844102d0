import { register } from '../registry.js';
import { AgentForm } from './agents/agent-form.js';

/** admin views of particular entities (the generic ones are in generic/index.ts); admin bundle only */
export function registerAdminViews() {
  register('agent/agent/admin-form', AgentForm);
}

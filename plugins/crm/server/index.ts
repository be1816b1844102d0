import type { Plugin } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { requestHooks, requestRoutes } from './requests.js';

/**
 * The crm module: public form submissions (POST /api/crm/forms/:id/requests, allowed to everyone by
 * the permission in defaults.json) and the demo contact form.
 */
export const crm: Plugin = {
  name: 'crm',
  routes: (app, ctx) => requestRoutes(app, ctx),
  hooks: requestHooks,
  defaults: seedFile(new URL('../defaults.json', import.meta.url)),
  seed: seedFile(new URL('../seed.json', import.meta.url)),
};

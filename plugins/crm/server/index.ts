import type { Plugin } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import type { Limit } from '../../../runtime/http/rate-limit.js';
import { crmService, DEFAULT_FORM_LIMIT, requestHooks, requestRoutes } from './requests.js';

export type { CrmService } from './requests.js';

export interface CrmOptions {
  /** form posts per client address (default 10 per 10 minutes) */
  formLimit?: Limit;
}

/**
 * The crm module: public form submissions (POST /api/crm/forms/:id/requests, allowed to everyone by
 * the permission in defaults.json, limited per client address), the `crm` service other modules
 * store requests through (the accounts module's signed-in request), and the demo contact form.
 */
export function createCrmPlugin(options: CrmOptions = {}): Plugin {
  return {
    name: 'crm',
    // one limiter for every route that stores a request: the visitor's form and the signed-in subject's
    services: (ctx) => ({ crm: crmService(ctx, options.formLimit ?? DEFAULT_FORM_LIMIT) }),
    routes: requestRoutes,
    // every new request is mailed to the admins by a hook, once committed
    hooks: requestHooks,
    defaults: seedFile(new URL('../defaults.json', import.meta.url)),
    seed: seedFile(new URL('../seed.json', import.meta.url)),
  };
}

export const crm = createCrmPlugin();

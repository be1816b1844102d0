/**
 * The one list of paths the platform itself serves, which no manifest may take over. Entities are served at
 * /api/<module>/<route>; the loader refuses a module or a route that would shadow (or be shadowed by) one of
 * these. tests/engine/reserved-routes.test.ts checks that every route the app and the plugins register outside
 * the generic CRUD routes is covered here, so a new plugin route that is not listed fails the suite.
 */

export interface ReservedRoute {
  /** '/api/<module>' reserves a whole first segment; '/api/<module>/<route>' one route of a module */
  path: string;
  /** the entity whose CRUD routes the reserved routes extend; any other entity may not take the path */
  entity?: string;
  /** what serves it */
  by: string;
}

export const RESERVED_ROUTES: readonly ReservedRoute[] = [
  // first segments of the site itself, beside /api: a module of that name would read as one of them
  { path: '/api/api', by: 'the API root' },
  { path: '/api/admin', by: 'runtime/http/model-route.ts (GET /api/admin/model) and the admin app at /admin/' },
  { path: '/api/assets', by: 'runtime/web.ts (built assets at /assets/)' },
  { path: '/api/files', by: 'plugins/file-storage (uploaded files at /files/)' },
  { path: '/api/health', by: 'runtime/app.ts (GET /api/health)' },
  { path: '/api/openapi.json', by: 'runtime/http/openapi.ts (GET /api/openapi.json)' },
  { path: '/api/docs', by: 'runtime/http/openapi.ts (the API viewer at /api/docs)' },
  { path: '/api/revalidation', by: 'plugins/host (GET /api/revalidation/revalidate)' },
  { path: '/api/billing/webhooks', by: 'plugins/billing (POST /api/billing/webhooks/:provider)' },
  { path: '/api/billing/providers', by: 'plugins/billing (GET /api/billing/providers)' },
  { path: '/api/broadcast/events', by: 'plugins/broadcast (GET /api/broadcast/events: live revalidation over SSE)' },
  { path: '/api/analytic/dashboard', by: 'plugins/analytic (GET /api/analytic/dashboard)' },
  // plugin routes under an entity's own path: only that entity may own the path
  { path: '/api/notification/topics', entity: 'notification/topic', by: 'plugins/notification (POST /api/notification/topics/:id/notify)' },
  { path: '/api/agent/agents', entity: 'agent/agent', by: 'plugins/agent (POST /api/agent/agents/:id/run)' },
  { path: '/api/analytic/widgets', entity: 'analytic/widget', by: 'plugins/analytic (GET /api/analytic/widgets/:id/value)' },
  { path: '/api/ecommerce/orders', entity: 'ecommerce/order', by: 'plugins/ecommerce (/api/ecommerce/orders/:id/total, /quantity, /checkout-attributes/:currencyId, /orders-to-products/:lineId, /clear-old-orders)' },
  { path: '/api/ecommerce/orders-to-products', entity: 'ecommerce/orders-to-products', by: 'plugins/ecommerce (GET /api/ecommerce/orders-to-products/:id/total)' },
  { path: '/api/crm/forms', entity: 'crm/form', by: 'plugins/crm (POST /api/crm/forms/:id/requests)' },
  { path: '/api/file-storage/files', entity: 'file-storage/file', by: 'plugins/file-storage (POST /api/file-storage/files/upload)' },
  { path: '/api/host/pages', entity: 'host/page', by: 'plugins/host (GET /api/host/pages/find-by-url, /urls, /url-segment-value)' },
  { path: '/api/rbac/subjects', entity: 'rbac/subject', by: 'plugins/rbac (/api/rbac/subjects/authentication/…, /:id/identities, /:id/notify)' },
  { path: '/api/rbac/identities', entity: 'rbac/identity', by: 'plugins/rbac (/api/rbac/identities/email-and-password, /:id/change-password)' },
];

/** what reserves a module name, if anything */
export function reservedModule(module: string): ReservedRoute | undefined {
  return RESERVED_ROUTES.find((r) => r.path === `/api/${module}`);
}

/** what reserves /api/<module>/<route> for another entity than `id`, if anything */
export function reservedRoute(module: string, route: string, id: string): ReservedRoute | undefined {
  return RESERVED_ROUTES.find((r) => r.path === `/api/${module}/${route}` && r.entity !== id);
}

import type { Model } from '../../engine/model.js';

/** ':id' and ':id{[0-9]+}' → a segment (`id`, when given, the pattern of ':id'); '*' → the rest */
function toRegex(path: string, id?: string): RegExp {
  let re = '';
  for (const part of path.split(/(:\w+(?:\{[^}]*\})?|\*)/)) {
    if (!part) continue;
    if (part === '*') re += '.*';
    else if (part.startsWith(':')) {
      const custom = /\{([^}]*)\}$/.exec(part)?.[1];
      re += custom ? `(?:${custom})` : id && part === ':id' ? `(?:${id})` : '[^/]+';
    } else re += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}/?$`);
}

/**
 * Whether the app has a route for METHOD PATH: every mounted route (middleware left out), and the generic
 * CRUD routes of the entities the model has. The accounts module asks it so that an unknown route answers
 * 404 to everyone, instead of a 401 that tells a visitor to sign in for a page that does not exist.
 */
/** the app-wide middleware paths (the envelope, the plugins' API middleware): no route of their own */
const APP_WIDE = new Set(['*', '/*', '/api/*']);

/** handlers that only refuse (a PATCH of a collection: 'id is required'): routes, but no method the path takes */
const refusals = new WeakSet<object>();
/** marks a handler that only refuses, so that an `Allow` header leaves its method out (routeMatcher's allowed) */
export function refusal<H extends object>(handler: H): H {
  refusals.add(handler);
  return handler;
}

/** the methods an `Allow` header may name (HEAD goes with GET, OPTIONS with every path) */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export function routeMatcher(routes: { method: string; path: string; handler?: unknown }[], model: Model) {
  const patterns = routes
    // the storefront's catch-all ('*', which passes /api on to the next handler) knows no API route
    .filter((r) => r.method !== 'ALL' && !r.path.startsWith('/api/:module/:route'))
    .map((r) => ({ method: r.method, re: toRegex(r.path), api: r.path.startsWith('/api'), refusal: refusals.has(r.handler as object) }));
  // the generic CRUD routes, an item's id a UUID (any other segment there is refused as no id)
  const generic = routes
    .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/:module/:route') && !refusals.has(r.handler as object))
    .map((r) => ({ method: r.method, re: toRegex(r.path, UUID) }));
  const entities = new Set(model.entities.map((e) => `${e.module}/${e.route}`));
  // handlers for every method (app.all) and middleware narrower than the app-wide ones: whatever they do, a path
  // they match is not left to the generic routes alone (the accounts module authorizes such a path itself)
  const anyMethod = routes
    .filter((r) => r.method === 'ALL' && !APP_WIDE.has(r.path) && !r.path.startsWith('/api/:module/:route'))
    .map((r) => toRegex(r.path));
  /** a route a plugin (or the app) declared answers METHOD PATH: the generic CRUD routes left out */
  const declared = (method: string, path: string): boolean => {
    const m = method === 'HEAD' ? 'GET' : method;
    const underApi = path === '/api' || path.startsWith('/api/');
    return patterns.some((p) => p.method === m && (p.api || !underApi) && p.re.test(path)) || anyMethod.some((re) => re.test(path));
  };
  const known = (method: string, path: string): boolean => {
    if (declared(method, path)) return true;
    const [api, module, route, ...rest] = path.split('/').filter(Boolean);
    return api === 'api' && entities.has(`${module}/${route}`) && rest.length <= 1;
  };
  /** the methods PATH takes, for an `Allow` header: its declared routes' and, on an entity's path, the generic routes'; none when no route answers it */
  const allowed = (path: string): string[] => {
    const underApi = path === '/api' || path.startsWith('/api/');
    const [api, module, route] = path.split('/').filter(Boolean);
    const entity = api === 'api' && entities.has(`${module}/${route}`);
    const any = anyMethod.some((re) => re.test(path));
    const takes = (m: string) =>
      any || patterns.some((p) => p.method === m && !p.refusal && (p.api || !underApi) && p.re.test(path)) || (entity && generic.some((p) => p.method === m && p.re.test(path)));
    return METHODS.filter(takes).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
  };
  return { known, declared, allowed };
}

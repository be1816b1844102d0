import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context, Hono } from 'hono';
import type { Entity, Model } from '../../engine/model.js';
import { bodySchema, rowSchema } from '../../engine/json-schema.js';
import { typeName } from '../../engine/model.js';
import { isPrivileged, type Caller, type CallerOf, type Permits } from './access.js';
import type { AccessChanges } from './access-changes.js';
import type { AddressLimiter, Limit } from './rate-limit.js';
import { utf8, weakEtag } from './wire.js';
import { DEFAULT_LIMIT, FILTER_METHODS, MAX_LIMIT, MIN_LIMIT, filterMethodsOf } from '../crud/query.js';

type Json = Record<string, unknown>;

/** the generic routes' paths, which the document describes per entity instead */
const GENERIC = /^\/api\/:module\/:route(\/|$)/;

/** drops the draft-07 bits OpenAPI 3.1 (JSON Schema 2020-12) has no use for, keeping the constraints */
function clean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(clean);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) if (k !== '$id') out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([n, s]) => [n, clean(s)])) : clean(v);
  return out;
}

const json = (schema: Json) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]));

/** the `filters` / `orderBy` deep-object grammar of spec §7, with the columns and methods of one entity */
function listParameters(entity: Entity, model: Model) {
  const columns = entity.fields.filter((f) => !f.secret).flatMap((f) => (f.kind === 'localized' ? model.languages.map((l) => `${f.name}.${l}`) : [f.name]));
  // the methods the API checks each column against (runtime/crud/query.ts), over every column and language
  const applies = new Set(entity.fields.filter((f) => !f.secret).flatMap((f) => [
    ...filterMethodsOf(f),
    ...(f.kind === 'localized' ? model.languages.flatMap((l) => filterMethodsOf(f, l)) : []),
  ]));
  const methods = FILTER_METHODS.filter((m) => applies.has(m));
  const condition = { type: 'object', properties: { column: { enum: columns }, method: { enum: methods }, value: {} }, required: ['column', 'method'] };
  const filters = {
    name: 'filters', in: 'query', style: 'deepObject', explode: true,
    description: "filters[and][i][column|method|value] and filters[or][…] (qs syntax). A language map is filtered by one language as 'title.en' (a configured language only). inArray and notInArray need a value, as every method but isNull and isNotNull does (a missing one is a 400); an empty value (value=) is the empty list: inArray matches nothing, notInArray everything.",
    schema: { type: 'object', properties: { and: { type: 'array', items: condition }, or: { type: 'array', items: condition } } },
  };
  return [
    filters,
    { name: 'orderBy', in: 'query', style: 'deepObject', explode: true, description: 'orderBy[and][i][column|method]', schema: { type: 'object', properties: { and: { type: 'array', items: { type: 'object', properties: { column: { enum: columns }, method: { enum: ['asc', 'desc'] } } } } } } },
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: MIN_LIMIT, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
    { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
  ];
}

/** getApiBlogCategoriesId: unique per method and path */
const operationId = (method: string, path: string) => method + path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase());

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** the operations of one entity's generic routes */
function entityPaths(entity: Entity, model: Model) {
  const base = `/api/${entity.module}/${entity.route}`;
  const T = typeName(entity);
  const tag = entity.module;
  const data = (schema: Json) => json({ type: 'object', properties: { data: schema }, required: ['data'] });
  const body = (schema: Json) => ({ required: true, content: { ...data(schema), 'multipart/form-data': { schema: { type: 'object', properties: { data: { type: 'string', description: `JSON of ${T}Create` } } } } } });
  const ops: [string, string, Json][] = [
    ['get', base, { summary: `List ${entity.title}`, parameters: listParameters(entity, model), responses: { 200: { description: 'rows', content: data({ type: 'array', items: ref(T) }) }, ...errors(400, 401, 403) } }],
    ['get', `${base}/count`, { summary: `Count ${entity.title}`, parameters: listParameters(entity, model).slice(0, 1), responses: { 200: { description: 'how many rows match', content: data({ type: 'integer' }) }, ...errors(400, 401, 403) } }],
    ['get', `${base}/{id}`, { summary: `One ${entity.title}`, parameters: [idParam], responses: { 200: { description: 'the row', content: data(ref(T)) }, ...errors(400, 401, 403, 404) } }],
    ['post', base, { summary: `Create ${entity.title}`, requestBody: body(ref(`${T}Create`)), responses: { 201: { description: 'created', content: data(ref(T)) }, ...errors(400, 401, 403, 409, 413) } }],
    ['patch', `${base}/{id}`, { summary: `Update ${entity.title}`, parameters: [idParam], requestBody: body(ref(`${T}Update`)), responses: { 200: { description: 'updated', content: data(ref(T)) }, ...errors(400, 401, 403, 404, 409, 413) } }],
    ['delete', `${base}/{id}`, { summary: `Delete ${entity.title}`, parameters: [idParam], responses: { 200: { description: 'the deleted row', content: data(ref(T)) }, ...errors(400, 401, 403, 404) } }],
    ['post', `${base}/find-or-create`, { summary: `Find or create ${entity.title}`, description: 'The first row equal on the plain fields given, or a new one (201).', requestBody: body(ref(`${T}Create`)), responses: { 200: { description: 'found', content: data(ref(T)) }, 201: { description: 'created', content: data(ref(T)) }, ...errors(400, 401, 403, 409) } }],
    ['post', `${base}/bulk`, { summary: `Create many ${entity.title}`, description: 'All or nothing.', requestBody: body({ type: 'array', items: ref(`${T}Create`), minItems: 1, maxItems: MAX_LIMIT }), responses: { 201: { description: 'created', content: data({ type: 'array', items: ref(T) }) }, ...errors(400, 401, 403, 409, 413) } }],
    ['patch', `${base}/bulk`, { summary: `Update many ${entity.title}`, description: 'All or nothing; each item names its id.', requestBody: body({ type: 'array', items: { allOf: [ref(`${T}Update`), { type: 'object', required: ['id'] }] }, minItems: 1, maxItems: MAX_LIMIT }), responses: { 200: { description: 'updated', content: data({ type: 'array', items: ref(T) }) }, ...errors(400, 401, 403, 404, 409, 413) } }],
  ];
  return ops.map(([method, path, op]) => ({ method, path, op: { tags: [tag], operationId: operationId(method, path), ...op } }));
}

/** a plugin route's operation, from its method and path: path parameters, the {data} body, the error shape */
function pluginOperation(method: string, path: string): Json {
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  const tag = path.split('/')[2] ?? 'api';
  return {
    tags: [tag],
    operationId: operationId(method, path),
    summary: `${method.toUpperCase()} ${path}`,
    ...(params.length && { parameters: params }),
    ...(method !== 'get' && method !== 'delete' && { requestBody: { content: { ...json({ type: 'object', properties: { data: {} } }), 'multipart/form-data': { schema: { type: 'object', properties: { data: { type: 'string' } } } } } } }),
    responses: { 200: { description: 'OK', content: json({ type: 'object', properties: { data: {} } }) }, ...errors(400, 401, 403, 404, 429) },
  };
}

/**
 * OpenAPI 3.1 of the API as the caller may use it, generated from the model and the mounted routes — never
 * written by hand: every entity the caller may call (anonymous callers: the public entities' reads and the
 * routes the permissions open; admins: everything), and every plugin route.
 */
export async function openapiDocument(opts: { model: Model; routes: { method: string; path: string }[]; caller: Caller; permits: (method: string, path: string) => Promise<boolean>; title?: string }): Promise<Json> {
  const { model, caller } = opts;
  const all = isPrivileged(caller);
  const paths: Record<string, Json> = {};
  const add = (method: string, path: string, op: Json) => ((paths[path] ??= {})[method] = op);
  const schemas: Json = {
    Error: { type: 'object', properties: { message: { type: 'string' }, status: { type: 'integer' }, cause: { type: 'array', items: { type: 'object', properties: { message: { type: 'string' }, field: { type: 'string' }, rule: { type: 'string' } }, required: ['message'] } } }, required: ['message', 'status'] },
  };
  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
  for (const entity of model.entities) {
    const ops = entityPaths(entity, model);
    let used = false;
    for (const { method, path, op } of ops) {
      const read = method === 'get';
      const open = all || (read && entity.access === 'public') || (await opts.permits(method.toUpperCase(), concrete(path)));
      if (!open) continue;
      add(method, path, op);
      used = true;
    }
    if (!used) continue;
    const T = typeName(entity);
    schemas[T] = clean(rowSchema(entity, model));
    schemas[`${T}Create`] = clean(bodySchema(entity, model, 'create'));
    schemas[`${T}Update`] = clean(bodySchema(entity, model, 'update'));
  }
  for (const r of opts.routes) {
    const method = r.method.toLowerCase();
    if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || !r.path.startsWith('/api/') || GENERIC.test(r.path) || r.path.includes('*')) continue;
    const path = r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');
    if (paths[path]?.[method]) continue;
    if (!all && !(await opts.permits(method.toUpperCase(), concrete(path)))) continue;
    add(method, path, pluginOperation(method, path));
  }
  const response = (description: string) => ({ description, content: json(ref('Error')) });
  return {
    openapi: '3.1.0',
    info: { title: opts.title ?? 'Manifest Platform API', version: '1', description: 'Generated from the manifests and the mounted routes. Answers are {"data": …}; errors are {message, status, cause?}, each cause naming a field and a rule.' },
    servers: [{ url: '/' }],
    tags: [...new Set(Object.values(paths).flatMap((p) => Object.values(p).flatMap((o) => (o as { tags: string[] }).tags)))].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas,
      responses: {
        E400: response('Bad request: a cause names each field and rule'),
        E401: response('Not authorized: no or an expired session'),
        E403: response('Not authorized: the account may not do this'),
        E404: response('Not found'),
        E409: response('Conflict: a unique field'),
        E413: response('The body is too large'),
        E429: response('Too many attempts: see Retry-After'),
      },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'the jwt from sign-in' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'rbac.subject.jwt', description: 'the session cookie set by sign-in' },
        systemKey: { type: 'apiKey', in: 'header', name: 'X-RBAC-SECRET-KEY', description: 'the system key: may do everything' },
      },
    },
    security: [{}, { bearer: [] }, { cookie: [] }, { systemKey: [] }],
  };
}

const requireHere = createRequire(import.meta.url);

/** GET /api/openapi.json per client address: Swagger UI asks once per visit, a code generator once per run */
export const OPENAPI_LIMIT: Limit = { points: 60, duration: 60 };

/**
 * What decides the document a caller sees: the system and admins see everything (one document); anyone else sees
 * what the route permissions open to its roles, so callers with the same kind, sign-in and roles share one document.
 * An anonymous visitor is one key.
 */
export function accessKey(caller: Caller): string {
  if (isPrivileged(caller)) return 'all';
  if (caller.kind !== 'subject') return caller.kind;
  return `subject ${caller.signedIn ? 'signed-in' : 'session'} ${[...caller.roles].sort().join(',')}`;
}

/** a document as it is answered: its JSON as UTF-8 bytes and their validator, made once */
export interface BuiltDocument {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

/**
 * The OpenAPI documents built so far, by access key (`accessKey`): each built once, at its first use, and shared by
 * every request asking while it is built (one build, not one per request). Dropped when what callers may do changes
 * (`AccessChanges`) and when routes are added; at most `max` keys (role sets) are kept, the oldest going first.
 */
export class OpenapiDocuments {
  private built = new Map<string, Promise<BuiltDocument>>();
  /** how many documents were built: a test reads it */
  builds = 0;
  constructor(private max = 64) {}

  get(key: string, build: () => Promise<Json>): Promise<BuiltDocument> {
    const kept = this.built.get(key);
    if (kept) return kept;
    if (this.built.size >= this.max) this.built.delete(this.built.keys().next().value!);
    this.builds++;
    const made = build().then((doc) => {
      const bytes = utf8(JSON.stringify(doc));
      return { bytes, etag: weakEtag(bytes) };
    });
    this.built.set(key, made);
    // a failed build is not kept: the next request tries again
    made.catch(() => {
      if (this.built.get(key) === made) this.built.delete(key);
    });
    return made;
  }

  clear() {
    this.built.clear();
  }

  get size() {
    return this.built.size;
  }
}

export interface OpenapiRouteOptions {
  model: Model;
  callerOf: CallerOf;
  permits: Permits;
  /** changes to the route permissions: the documents built so far are dropped */
  access: AccessChanges;
  /** the per-address limit of GET /api/openapi.json */
  limit: AddressLimiter;
  documents?: OpenapiDocuments;
}

/**
 * GET /api/openapi.json, and /api/docs: Swagger UI (the swagger-ui-dist package) served from this server,
 * with no CDN and no inline script.
 *
 * The document is built once per access key (a build reads every entity's schemas and asks the route permissions
 * about every route: about a second of CPU on this machine, 600 KB), then answered from memory as bytes with a
 * validator: `no-cache`, so that a visitor's client revalidates and gets a 304 while nothing changed (an answer to a
 * caller with credentials is `no-store` and carries none: runtime/http/wire.ts); compressed once per encoding. It
 * varies with the credentials a request carries. Each client address may ask OPENAPI_LIMIT times a minute.
 */
export function openapiRoutes(app: Hono, opts: OpenapiRouteOptions) {
  const documents = opts.documents ?? new OpenapiDocuments();
  opts.access.onChange(() => documents.clear());
  // routes are mounted at start (the web apps' after the API's): a document describes the routes there are now
  let routeCount = app.routes.length;
  app.get('/api/openapi.json', async (c: Context) => {
    await opts.limit(c);
    const caller = await opts.callerOf(c);
    if (app.routes.length !== routeCount) {
      routeCount = app.routes.length;
      documents.clear();
    }
    // built with this request's caller: every caller of the key gets the same answers from the route permissions
    const { bytes, etag } = await documents.get(accessKey(caller), () =>
      openapiDocument({ model: opts.model, routes: app.routes, caller, permits: (method, path) => opts.permits(c, method, path) }),
    );
    return new Response(bytes, { headers: { 'content-type': 'application/json', etag, 'cache-control': 'no-cache', vary: 'Authorization, Cookie, X-RBAC-SECRET-KEY' } });
  });
  const dist = dirname(requireHere.resolve('swagger-ui-dist/package.json'));
  const assets: Record<string, [string, string]> = {
    'swagger-ui.css': ['swagger-ui.css', 'text/css; charset=utf-8'],
    'swagger-ui-bundle.js': ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  };
  // read once, with their validator: the bundle is 1.4 MB, whose digest per request cost milliseconds
  const read = new Map<string, BuiltDocument>();
  app.get('/api/docs/assets/:file', (c) => {
    const entry = Object.hasOwn(assets, c.req.param('file')) ? assets[c.req.param('file')] : undefined;
    if (!entry) return c.json({ message: 'Not found', status: 404 }, 404);
    let file = read.get(entry[0]);
    if (!file) {
      const bytes = new Uint8Array(readFileSync(join(dist, entry[0])));
      read.set(entry[0], (file = { bytes, etag: weakEtag(bytes) }));
    }
    return new Response(file.bytes, { headers: { 'content-type': entry[1], 'cache-control': 'public, max-age=86400', etag: file.etag } });
  });
  app.get('/api/docs/init.js', (c) =>
    c.body(`window.addEventListener('load', function () { window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs', deepLinking: true, withCredentials: true }); });\n`, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );
  // the viewer is a page: scripts and styles from this server only (no inline script), and no framing
  const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
  app.get('/api/docs', (c) =>
    c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>API — Manifest Platform</title><link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head><body><div id="docs"></div><script src="/api/docs/assets/swagger-ui-bundle.js"></script><script src="/api/docs/init.js"></script></body></html>`, 200, { 'content-security-policy': DOCS_CSP }),
  );
}

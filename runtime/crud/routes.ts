import { Hono, type Context } from 'hono';
import type { Entity, Model } from '../../engine/model.js';
import { UUID_RE } from '../../engine/fields/index.js';
import { HttpError, badRequest } from '../http/errors.js';
import type { Authorizer, Caller, CallerOf, Operation } from '../http/access.js';
import type { Policy } from './policy.js';
import { and } from 'drizzle-orm';
import { checkListParameters, parseListQuery, parseQueryString, whereOf, MAX_LIMIT } from './query.js';
import { validateBody } from './validate.js';
import type { CompiledList, Repository } from './repository.js';
import { readBody } from './body.js';
import { refusal } from '../http/routes-known.js';
import { genericGet } from '../http/fast-read.js';

export interface CrudDeps {
  model: Model;
  repo: Repository;
  authorize: Authorizer;
  caller: CallerOf;
  policy: Policy;
}

function idParam(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!UUID_RE.test(id)) throw badRequest(`id must be a UUID, got '${id.slice(0, 64)}'`, [{ message: 'id must be a UUID', field: 'id', rule: 'format' }]);
  return id.toLowerCase();
}

function listOf(data: unknown): unknown[] {
  if (data === undefined) throw badRequest('Data is undefined');
  if (!Array.isArray(data)) throw badRequest('data must be a list for bulk operations');
  if (!data.length) throw badRequest('No data');
  if (data.length > MAX_LIMIT) throw badRequest(`data may hold at most ${MAX_LIMIT} items`);
  return data;
}

/**
 * The generic CRUD routes (spec §7) for every entity, mounted once at /api: the module and route
 * segments pick the entity, so ten routes serve every manifest — list, count, get, create, update,
 * delete, find-or-create, bulk create and bulk update.
 */
/** the reader of an entity whose reads do not depend on who asks: every field readable, no scope */
const UNSCOPED_READER: Caller = { kind: 'system', roles: [], admin: true };

export function crudRoutes({ model, repo, authorize, caller: callerOf, policy }: CrudDeps): Hono {
  const app = new Hono();
  const byRoute = new Map(model.entities.map((e) => [`${e.module}/${e.route}`, e]));
  const dialect = repo.database.dialect;
  const datesAsText = <T,>(entity: Entity, rows: T[]): T[] => repo.datesAsText(entity, rows);
  const entityOf = (c: Context): Entity => {
    const entity = byRoute.get(`${c.req.param('module')}/${c.req.param('route')}`);
    if (!entity) throw new HttpError(404, `Not found: ${c.req.method} ${c.req.path}`);
    return entity;
  };
  const allow = (c: Context, entity: Entity, operation: Operation, row?: Record<string, unknown>) => authorize(c, { entity, operation, row });
  const query = (c: Context) => parseQueryString(new URL(c.req.url).search);
  const base = '/:module/:route';
  type Row = Record<string, unknown>;

  /** a body for a create: validated against the manifest, then checked against the caller's field and row access */
  async function createBody(c: Context, caller: Caller, entity: Entity, data: unknown, prefix = '') {
    const body = validateBody(entity, model, 'create', policy.prepareCreate(caller, entity, data), prefix);
    await policy.checkWrite(c, caller, entity, 'create', body, body);
    return body;
  }
  const opts = (caller: Caller, entity: Entity) => ({ caller, linkTo: policy.linkOwner(caller, entity) });

  /** who asks, for a read: resolved only when the answer depends on it (public content skips the session lookup) */
  const readerOf = (c: Context, entity: Entity): Promise<Caller> => (policy.readDependsOnCaller(entity) ? callerOf(c) : Promise.resolve(UNSCOPED_READER));

  /** the list query of a request: filters, order and page parsed and checked against what the caller may read, plus its scope */
  const listQueryOf = (c: Context, entity: Entity, caller: Caller) => {
    const q = parseListQuery(entity, model, repo.table(entity), dialect, query(c), policy.filterable(caller));
    const scope = policy.scope(caller, entity);
    if (scope) q.where = and(q.where, scope);
    return q;
  };
  /**
   * Lists compiled to SQL (SQLite and PostgreSQL), by entity, caller and query string. What the SQL depends on is all in the key
   * (the caller's roles decide what may be filtered, its subject the scope), so a repeated list skips parsing,
   * checking and building; a query string that fails its checks is never kept. Bounded: cleared when full.
   */
  const compiled = new Map<string, CompiledList>();
  const COMPILED_KEPT = 1000;
  const readerKey = (caller: Caller) => (caller === UNSCOPED_READER ? '*' : `${caller.kind}|${caller.subjectId ?? ''}|${caller.admin ? 1 : 0}|${caller.roles.join(',')}`);

  app.get(base, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'list');
    const caller = await readerOf(c, entity);
    // lists never truncate silently: the total rides along; a short page tells it without a count query
    const totalOf = (rows: Row[], limit: number, offset: number, count: () => Promise<number> | number) =>
      rows.length < limit && (rows.length > 0 || offset === 0) ? offset + rows.length : count();
    let rows: Row[];
    let total: number;
    if (repo.database.readRaw || repo.database.queryRaw) {
      const url = c.req.url;
      const at = url.indexOf('?');
      const key = `${entity.id}\u0000${readerKey(caller)}\u0000${at < 0 ? '' : url.slice(at)}`;
      let list = compiled.get(key);
      if (!list) {
        list = repo.compileList(entity, listQueryOf(c, entity, caller))!;
        if (compiled.size >= COMPILED_KEPT) compiled.clear();
        compiled.set(key, list);
      }
      const page = list;
      if (repo.database.readRaw) {
        rows = repo.runList(entity, page, true);
        total = await totalOf(rows, page.limit, page.offset, () => repo.runCount(page));
      } else {
        rows = await repo.runListRaw(entity, page);
        total = await totalOf(rows, page.limit, page.offset, () => repo.runCountRaw(page));
      }
    } else {
      const q = listQueryOf(c, entity, caller);
      rows = await repo.list(entity, q);
      total = await totalOf(rows, q.limit, q.offset, () => repo.count(entity, q.where));
    }
    // made with a plain header object: hono's c.json builds a Fetch Headers for more than one header
    return new Response(JSON.stringify({ data: datesAsText(entity, await policy.project(caller, entity, rows)) }), { status: 200, headers: { 'content-type': 'application/json', 'x-total-count': String(total) } });
  });
  app.get(`${base}/count`, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'count');
    const caller = await readerOf(c, entity);
    const q = query(c);
    checkListParameters(q);
    const where = whereOf(entity, model, repo.table(entity), dialect, q.filters, policy.filterable(caller));
    return c.json({ data: await repo.count(entity, and(where, policy.scope(caller, entity))) });
  });
  // runtime/http/fast-read.ts gives this answer itself to anonymous reads of public entities
  app.get(`${base}/:id`, genericGet(async (c: Context) => {
    const entity = entityOf(c);
    const id = idParam(c);
    // the route's permission before the row is looked up: a caller who may not read the entity gets the same 401 or
    // 403 whether the id exists or not (a 404 for a missing id told visitors which private ids exist)
    await allow(c, entity, 'get');
    const row = await repo.getOrThrow(entity, id);
    await allow(c, entity, 'get', row);
    if (!policy.readDependsOnCaller(entity)) return c.json({ data: datesAsText(entity, [row])[0] });
    const caller = await callerOf(c);
    await policy.checkRead(caller, entity, row);
    const [shown] = await policy.project(caller, entity, [{ ...row }]);
    return c.json({ data: datesAsText(entity, [shown])[0] });
  }));

  app.post(base, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'create');
    const caller = await callerOf(c);
    const body = await createBody(c, caller, entity, (await readBody(c)).data);
    await allow(c, entity, 'create', body);
    const row = await repo.create(entity, body, undefined, '', undefined, opts(caller, entity));
    return c.json({ data: (await policy.project(caller, entity, [row]))[0] }, 201);
  });
  app.post(`${base}/find-or-create`, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'findOrCreate');
    const caller = await callerOf(c);
    const body = await createBody(c, caller, entity, (await readBody(c)).data);
    await allow(c, entity, 'findOrCreate', body);
    const { row, created } = await repo.findOrCreate(entity, body, { ...opts(caller, entity), scope: policy.scope(caller, entity, true) });
    return c.json({ data: (await policy.project(caller, entity, [row]))[0] }, created ? 201 : 200);
  });
  app.post(`${base}/bulk`, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'bulkCreate');
    const caller = await callerOf(c);
    const data = listOf((await readBody(c)).data);
    const bodies: Row[] = [];
    for (const [i, d] of data.entries()) bodies.push(await createBody(c, caller, entity, d, `data[${i}]`));
    for (const b of bodies) await allow(c, entity, 'bulkCreate', b);
    return c.json({ data: await policy.project(caller, entity, await repo.bulkCreate(entity, bodies, opts(caller, entity))) }, 201);
  });
  app.patch(`${base}/bulk`, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'bulkUpdate');
    const caller = await callerOf(c);
    const items = listOf((await readBody(c)).data).map((d, i) => {
      const id = (d as { id?: unknown })?.id;
      if (typeof id !== 'string' || !id) throw badRequest(`id is required (data[${i}].id)`, [{ message: 'id is required', field: `data[${i}].id`, rule: 'required' }]);
      if (!UUID_RE.test(id)) throw badRequest(`data[${i}].id must be a UUID`, [{ message: 'id must be a UUID', field: `data[${i}].id`, rule: 'format' }]);
      return { id: id.toLowerCase(), data: validateBody(entity, model, 'update', d, `data[${i}]`) };
    });
    for (const it of items) {
      const before = await repo.getOrThrow(entity, it.id);
      const after = { ...before, ...it.data };
      await policy.checkWrite(c, caller, entity, 'update', it.data, after, before);
      await allow(c, entity, 'bulkUpdate', after);
    }
    return c.json({ data: await policy.project(caller, entity, await repo.bulkUpdate(entity, items, { caller })) });
  });
  app.patch(`${base}/:id`, async (c) => {
    const entity = entityOf(c);
    const id = idParam(c);
    await allow(c, entity, 'update');
    const caller = await callerOf(c);
    const body = validateBody(entity, model, 'update', (await readBody(c)).data);
    const before = await repo.getOrThrow(entity, id);
    const after = { ...before, ...body };
    await policy.checkWrite(c, caller, entity, 'update', body, after, before);
    await allow(c, entity, 'update', after);
    const row = await repo.update(entity, id, body, undefined, '', { caller });
    return c.json({ data: (await policy.project(caller, entity, [row]))[0] });
  });
  app.delete(`${base}/:id`, async (c) => {
    const entity = entityOf(c);
    const id = idParam(c);
    await allow(c, entity, 'delete');
    const caller = await callerOf(c);
    const before = await repo.getOrThrow(entity, id);
    await policy.checkWrite(c, caller, entity, 'delete', {}, before, before);
    await allow(c, entity, 'delete', before);
    const row = await repo.delete(entity, id, undefined, { caller });
    return c.json({ data: (await policy.project(caller, entity, [row]))[0] });
  });
  const idRequired = refusal((c: Context) => {
    entityOf(c);
    throw badRequest('id is required', [{ message: 'id is required', field: 'id', rule: 'required' }]);
  });
  app.patch(base, idRequired);
  app.delete(base, idRequired);
  return app;
}

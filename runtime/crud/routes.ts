import { Hono, type Context } from 'hono';
import type { Entity, Model } from '../../engine/model.js';
import { UUID_RE } from '../../engine/fields/index.js';
import { HttpError, badRequest } from '../http/errors.js';
import type { Authorizer, Operation } from '../http/access.js';
import { parseListQuery, parseQueryString, whereOf, MAX_LIMIT } from './query.js';
import { validateBody } from './validate.js';
import type { Repository } from './repository.js';
import { readBody } from './body.js';

export interface CrudDeps {
  model: Model;
  repo: Repository;
  authorize: Authorizer;
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
export function crudRoutes({ model, repo, authorize }: CrudDeps): Hono {
  const app = new Hono();
  const byRoute = new Map(model.entities.map((e) => [`${e.module}/${e.route}`, e]));
  const dialect = repo.database.dialect;
  const entityOf = (c: Context): Entity => {
    const entity = byRoute.get(`${c.req.param('module')}/${c.req.param('route')}`);
    if (!entity) throw new HttpError(404, `Not found: ${c.req.method} ${c.req.path}`);
    return entity;
  };
  const allow = (c: Context, entity: Entity, operation: Operation, row?: Record<string, unknown>) => authorize(c, { entity, operation, row });
  const query = (c: Context) => parseQueryString(new URL(c.req.url).search);
  const base = '/:module/:route';

  app.get(base, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'list');
    const q = parseListQuery(entity, model, repo.table(entity), dialect, query(c));
    return c.json({ data: await repo.list(entity, q) });
  });
  app.get(`${base}/count`, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'count');
    return c.json({ data: await repo.count(entity, whereOf(entity, model, repo.table(entity), dialect, query(c).filters)) });
  });
  app.get(`${base}/:id`, async (c) => {
    const entity = entityOf(c);
    const row = await repo.getOrThrow(entity, idParam(c));
    await allow(c, entity, 'get', row);
    return c.json({ data: row });
  });

  app.post(base, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'create');
    const body = validateBody(entity, model, 'create', (await readBody(c)).data);
    await allow(c, entity, 'create', body);
    return c.json({ data: await repo.create(entity, body) }, 201);
  });
  app.post(`${base}/find-or-create`, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'findOrCreate');
    const body = validateBody(entity, model, 'create', (await readBody(c)).data);
    await allow(c, entity, 'findOrCreate', body);
    const { row, created } = await repo.findOrCreate(entity, body);
    return c.json({ data: row }, created ? 201 : 200);
  });
  app.post(`${base}/bulk`, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'bulkCreate');
    const bodies = listOf((await readBody(c)).data).map((d, i) => validateBody(entity, model, 'create', d, `data[${i}]`));
    for (const b of bodies) await allow(c, entity, 'bulkCreate', b);
    return c.json({ data: await repo.bulkCreate(entity, bodies) }, 201);
  });
  app.patch(`${base}/bulk`, async (c) => {
    const entity = entityOf(c);
    await allow(c, entity, 'bulkUpdate');
    const items = listOf((await readBody(c)).data).map((d, i) => {
      const id = (d as { id?: unknown })?.id;
      if (typeof id !== 'string' || !id) throw badRequest(`id is required (data[${i}].id)`, [{ message: 'id is required', field: `data[${i}].id`, rule: 'required' }]);
      if (!UUID_RE.test(id)) throw badRequest(`data[${i}].id must be a UUID`, [{ message: 'id must be a UUID', field: `data[${i}].id`, rule: 'format' }]);
      return { id: id.toLowerCase(), data: validateBody(entity, model, 'update', d, `data[${i}]`) };
    });
    for (const it of items) await allow(c, entity, 'bulkUpdate', { ...(await repo.getOrThrow(entity, it.id)), ...it.data });
    return c.json({ data: await repo.bulkUpdate(entity, items) });
  });
  app.patch(`${base}/:id`, async (c) => {
    const entity = entityOf(c);
    const id = idParam(c);
    await allow(c, entity, 'update');
    const body = validateBody(entity, model, 'update', (await readBody(c)).data);
    await allow(c, entity, 'update', { ...(await repo.getOrThrow(entity, id)), ...body });
    return c.json({ data: await repo.update(entity, id, body) });
  });
  app.delete(`${base}/:id`, async (c) => {
    const entity = entityOf(c);
    const id = idParam(c);
    await allow(c, entity, 'delete');
    await allow(c, entity, 'delete', await repo.getOrThrow(entity, id));
    return c.json({ data: await repo.delete(entity, id) });
  });
  const idRequired = (c: Context) => {
    entityOf(c);
    throw badRequest('id is required', [{ message: 'id is required', field: 'id', rule: 'required' }]);
  };
  app.patch(base, idRequired);
  app.delete(base, idRequired);
  return app;
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { prepare } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';
import { countKey, expand, FIELDS, FIRST, linksOf, type Link } from '../../runtime/crud/expand.js';
import { DIALECTS, type TestDatabase } from '../helpers/databases.js';

/**
 * Repository.readLinked reads a relation's rows and their far ends in one statement (a join), where expand read them
 * in two (the relation's rows, then their far ends by id). It must give what the two reads gave: every relation row in
 * relation order, and each far row once, with the fields asked for; on both dialects.
 */
for (const d of DIALECTS) describe(`readLinked: a relation's rows and their far ends in one read (${d.name})`, () => {
  let db: TestDatabase;
  let app: Awaited<ReturnType<typeof prepare>>;
  let link: Link;
  const secret = randomBytes(24).toString('base64url').slice(0, 32);
  const ids: Record<string, string> = {};

  const post = async (path: string, data: Record<string, unknown>) => {
    const res = await app.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-rbac-secret-key': secret }, body: JSON.stringify({ data }) });
    const body = (await res.json()) as { data: { id: string } };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.data.id;
  };

  beforeAll(async () => {
    db = await d.make();
    const config = loadConfig({ ...process.env, REDIS_URL: '', DATABASE_URL: db.url, RBAC_SECRET_KEY: secret, RBAC_JWT_SECRET: `${secret}-jwt`, NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0' });
    app = await prepare({ config, root: ROOT, plugins, seed: false, web: 'off' });
    const widget = app.model.byId['website-builder/widget'];
    link = linksOf(app.model, widget).find((l) => l.key === 'widgetsToButtonsArrays')!;
    expect(link).toBeDefined();
    for (const name of ['one', 'two', 'none']) ids[name] = await post('/api/website-builder/widgets', { adminTitle: `Widget ${name}`, slug: `widget-${name}` });
    for (const name of ['a', 'b', 'c']) ids[name] = await post('/api/website-builder/buttons-arrays', { adminTitle: `Array ${name}`, slug: `array-${name}`, title: { en: `Title ${name}`, ru: `Заголовок ${name}` } });
    // widget one: c, a, b by orderIndex (made in another order); widget two: a again (one far row, two links)
    ids.oneB = await post('/api/website-builder/widgets-to-buttons-arrays', { widgetId: ids.one, buttonsArrayId: ids.b, orderIndex: 2 });
    ids.oneC = await post('/api/website-builder/widgets-to-buttons-arrays', { widgetId: ids.one, buttonsArrayId: ids.c, orderIndex: 0 });
    ids.oneA = await post('/api/website-builder/widgets-to-buttons-arrays', { widgetId: ids.one, buttonsArrayId: ids.a, orderIndex: 1 });
    ids.twoA = await post('/api/website-builder/widgets-to-buttons-arrays', { widgetId: ids.two, buttonsArrayId: ids.a, orderIndex: 0 });
  });
  afterAll(async () => {
    app?.shutdown();
    await app?.database.close();
    await db?.drop();
  });

  /** what expand read before: the relation's rows in relation order, then their far ends by id */
  async function twoReads(values: string[], linkOnly?: readonly string[], farOnly?: readonly string[]) {
    const links = await app.repo.readIn(app.database.primary, link.relation, link.near.name, values, true, linkOnly);
    const farIds = [...new Set(links.map((l) => l[link.far.name] as string))];
    const ends = farIds.length ? await app.repo.readIn(app.database.primary, link.target, 'id', farIds, false, farOnly) : [];
    return { links, ends };
  }
  const byId = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a.id).localeCompare(String(b.id)));

  it('gives every relation row in relation order and each far row once, as the two reads did, in one statement', async () => {
    const before = app.database.queries;
    const { links, ends } = await app.repo.readLinked(app.database.primary, link, [ids.one, ids.two]);
    expect(app.database.queries - before).toBe(1);
    // relation order is orderIndex, then createdAt, then id, across both widgets
    expect(links.map((l) => l.id)).toEqual([ids.oneC, ids.twoA, ids.oneA, ids.oneB]);
    // array a is the far end of two links, and comes once
    expect(byId(ends).map((e) => e.id)).toEqual([ids.a, ids.b, ids.c].sort());
    expect(ends.find((e) => e.id === ids.a)!.title).toEqual({ en: 'Title a', ru: 'Заголовок a' });
    const old = await twoReads([ids.one, ids.two]);
    expect(links).toEqual(old.links);
    expect(byId(ends)).toEqual(byId(old.ends));
  });

  it('reads only the fields asked for (and the id) of each side', async () => {
    const linkOnly = ['widgetId', 'buttonsArrayId'];
    const farOnly = ['title'];
    const { links, ends } = await app.repo.readLinked(app.database.primary, link, [ids.one], linkOnly, farOnly);
    expect(Object.keys(links[0]).sort()).toEqual(['buttonsArrayId', 'id', 'widgetId']);
    expect(Object.keys(ends[0]).sort()).toEqual(['id', 'title']);
    const old = await twoReads([ids.one], linkOnly, farOnly);
    expect(links).toEqual(old.links);
    expect(byId(ends)).toEqual(byId(old.ends));
  });

  it('gives nothing for a row with no relation rows', async () => {
    expect(await app.repo.readLinked(app.database.primary, link, [ids.none])).toEqual({ links: [], ends: [] });
  });

  it('expands through it: each row gets its relation rows in order, each with its far end', async () => {
    const widget = app.model.byId['website-builder/widget'];
    const rows = [{ id: ids.one }, { id: ids.two }, { id: ids.none }] as Record<string, unknown>[] & { id: string }[];
    await expand(app.repo, app.database.primary, widget, rows as never, 1, undefined, { widgetsToButtonsArrays: undefined });
    const [one, two, none] = rows as Record<string, { id: string; buttonsArray: { id: string; slug: string } }[]>[];
    expect(one.widgetsToButtonsArrays.map((l) => [l.id, l.buttonsArray.slug])).toEqual([[ids.oneC, 'array-c'], [ids.oneA, 'array-a'], [ids.oneB, 'array-b']]);
    expect(two.widgetsToButtonsArrays.map((l) => l.buttonsArray.id)).toEqual([ids.a]);
    // the far row shared by two links is one row
    expect(two.widgetsToButtonsArrays[0].buttonsArray).toBe(one.widgetsToButtonsArrays[1].buttonsArray);
    expect(none.widgetsToButtonsArrays).toEqual([]);
  });
  it("a window: the first rows of each near row, or one near row's rows from an offset; countLinked counts them all", async () => {
    const db = app.database.primary;
    // widget one has c, a, b; widget two has a
    let { links, ends } = await app.repo.readLinked(db, link, [ids.one, ids.two], undefined, ['title'], { first: 2 });
    expect(links.map((l) => l.id)).toEqual([ids.oneC, ids.twoA, ids.oneA]);
    expect(byId(ends).map((e) => e.id)).toEqual([ids.a, ids.c].sort());
    expect(Object.keys(ends[0]).sort()).toEqual(['id', 'title']);
    ({ links } = await app.repo.readLinked(db, link, [ids.one], undefined, undefined, { offset: 1, limit: 1 }));
    expect(links.map((l) => l.id)).toEqual([ids.oneA]);
    ({ links } = await app.repo.readLinked(db, link, [ids.one], undefined, undefined, { offset: 2, limit: 10 }));
    expect(links.map((l) => l.id)).toEqual([ids.oneB]);
    expect(await app.repo.countLinked(db, link, [ids.one, ids.two, ids.none])).toEqual(new Map([[ids.one, 3], [ids.two, 1]]));
  });

  it('expand with a plan that reads a relation in part: the first rows of each, and each row counts its own', async () => {
    const widget = app.model.byId['website-builder/widget'];
    const rows = [{ id: ids.one }, { id: ids.two }, { id: ids.none }] as { id: string; [k: string]: unknown }[];
    await expand(app.repo, app.database.primary, widget, rows, 1, undefined, { widgetsToButtonsArrays: { [FIELDS]: ['title'], [FIRST]: 2 } });
    expect((rows[0].widgetsToButtonsArrays as { buttonsArray: { id: string } }[]).map((l) => l.buttonsArray.id)).toEqual([ids.c, ids.a]);
    expect(rows.map((r) => r[countKey('widgetsToButtonsArrays')])).toEqual([3, 1, 0]);
    expect(rows[2].widgetsToButtonsArrays).toEqual([]);
  });
});

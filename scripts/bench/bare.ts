/**
 * The bare yardstick of the benchmarks: a minimal Hono app answering GET /api/ecommerce/products/:id and the list
 * filtered by type (the SQL of our list: the same columns, WHERE type = ?, default order createdAt then id) from a
 * SQLite file with better-sqlite3 prepared statements, opened read-only. Used by the bench's bare server
 * (scripts/bench/server.ts) and by the allocation run (scripts/bench/alloc.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import BetterSqlite3 from 'better-sqlite3';
import { ROOT } from '../../engine/codegen.js';
import { loadGenerated } from '../../runtime/generated.js';

const PRODUCT = 'ecommerce/product';

/** the columns Repository.get selects (every non-secret field), under the same names */
async function productColumns(): Promise<string> {
  const generated = await loadGenerated(join(ROOT, 'generated'));
  const entity = generated.model.byId[PRODUCT];
  const table = generated.tables.sqlite[PRODUCT];
  return entity.fields
    .filter((f) => !f.secret)
    .map((f) => `"${table[f.name].name as string}" AS "${f.name}"`)
    .join(', ');
}

/** the bare app on the file at `path`; `staticFile`: those bytes at GET /static, the yardstick of a cached page */
export async function bareApp(path: string, staticFile?: string): Promise<{ app: Hono; close(): void }> {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  const columns = await productColumns();
  const byId = db.prepare(`SELECT ${columns} FROM ecommerce_products WHERE id = ?`);
  const list = db.prepare(`SELECT ${columns} FROM ecommerce_products WHERE type = ? ORDER BY created_at, id LIMIT ? OFFSET ?`);
  const app = new Hono();
  const file = staticFile ? readFileSync(staticFile) : undefined;
  if (file) app.get('/static', (c) => c.body(file, 200, { 'content-type': 'text/html; charset=UTF-8', 'cache-control': 'no-cache' }));
  app.get('/api/ecommerce/products', (c) => {
    const rows = list.all(c.req.query('filters[and][0][value]'), Number(c.req.query('limit') ?? 1000), 0);
    return c.json({ data: rows });
  });
  app.get('/api/ecommerce/products/:id', (c) => {
    const row = byId.get(c.req.param('id'));
    return row ? c.json({ data: row }) : c.json({ message: 'Not found', status: 404 }, 404);
  });
  return { app, close: () => db.close() };
}

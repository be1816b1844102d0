import { notInArray } from 'drizzle-orm';
import type { Model } from '../engine/model.js';
import type { Repository } from './crud/repository.js';
import { validateBody } from './crud/validate.js';
import type { SeedData } from './plugin.js';

/** entity ids ordered so that every row's references are inserted before it */
function dependencyOrder(model: Model, ids: string[]): string[] {
  const out: string[] = [];
  const visit = (id: string, path: Set<string>) => {
    if (out.includes(id) || path.has(id)) return;
    path.add(id);
    for (const f of model.byId[id].fields) if (f.kind === 'reference' && ids.includes(f.target!)) visit(f.target!, path);
    out.push(id);
  };
  ids.forEach((id) => visit(id, new Set()));
  return out;
}

export async function isEmpty(repo: Repository, defaults: SeedData[] = []): Promise<boolean> {
  // the rows every installation gets (ensureDefaults) do not count: a first start stopped after writing them and
  // before the seed (its own transaction) must seed on the next start, not find the database 'used' forever
  const fixed = new Map<string, string[]>();
  for (const d of defaults) for (const [id, rows] of Object.entries(d)) fixed.set(id, [...(fixed.get(id) ?? []), ...rows.map((r) => r.id).filter((x): x is string => typeof x === 'string')]);
  for (const e of repo.model.entities) {
    const ids = fixed.get(e.id);
    if ((await repo.count(e, ids?.length ? notInArray(repo.table(e).id, ids) : undefined)) > 0) return false;
  }
  return true;
}

/**
 * Inserts seed rows through the same validation as the API, in one transaction.
 * @returns the number of rows inserted
 */
export async function seed(repo: Repository, data: SeedData[]): Promise<number> {
  const merged: SeedData = {};
  for (const d of data) for (const [id, rows] of Object.entries(d)) (merged[id] ??= []).push(...rows);
  for (const id of Object.keys(merged)) if (!repo.model.byId[id]) throw new Error(`seed names an unknown entity '${id}'`);
  let n = 0;
  await repo.database.transaction(async (tx) => {
    for (const id of dependencyOrder(repo.model, Object.keys(merged))) {
      const entity = repo.model.byId[id];
      for (const [i, row] of merged[id].entries()) {
        const body = validateBody(entity, repo.model, 'create', row, `${id}[${i}]`);
        await repo.create(entity, body, tx, `${id}[${i}]`, typeof row.id === 'string' ? row.id : undefined);
        n++;
      }
    }
  });
  return n;
}

/**
 * Inserts the rows every installation needs (roles, permissions) whose ids are missing; rows an
 * admin has since changed are left as they are.
 * @returns the number of rows inserted
 */
export async function ensureDefaults(repo: Repository, data: SeedData[]): Promise<number> {
  const missing: SeedData = {};
  for (const d of data) {
    for (const [id, rows] of Object.entries(d)) {
      const entity = repo.model.byId[id];
      if (!entity) throw new Error(`defaults name an unknown entity '${id}'`);
      for (const row of rows) {
        if (typeof row.id !== 'string') throw new Error(`a default row of ${id} needs a fixed id`);
        if (!(await repo.get(entity, row.id))) (missing[id] ??= []).push(row);
      }
    }
  }
  return Object.keys(missing).length ? seed(repo, [missing]) : 0;
}

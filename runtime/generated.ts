import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { entitiesById, type Model } from '../engine/model.js';
import type { Drizzle } from './db/index.js';

export interface Generated {
  model: Model;
  tables: Record<'sqlite' | 'pg', Record<string, Drizzle>>;
}

/** loads what codegen wrote into a generated/ folder: the model graph and the drizzle tables of both dialects */
export async function loadGenerated(dir: string): Promise<Generated> {
  const model = loadModel(dir);
  return { model, tables: { sqlite: await loadTables(dir, 'sqlite'), pg: await loadTables(dir, 'pg') } };
}

/** the model graph codegen wrote into a generated/ folder */
export function loadModel(dir: string): Model {
  const model = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as Model;
  model.byId = entitiesById(model.entities);
  return model;
}

/** the drizzle tables of one dialect codegen wrote into a generated/ folder */
export async function loadTables(dir: string, dialect: 'sqlite' | 'pg'): Promise<Record<string, Drizzle>> {
  const file = join(dir, 'db', `${dialect}.ts`);
  // versioned by modification time: a regenerated file in the same process is a new module
  const url = `${pathToFileURL(file).href}?v=${Math.round(statSync(file).mtimeMs * 1000)}`;
  return ((await import(url)) as { tables: Record<string, Drizzle> }).tables;
}

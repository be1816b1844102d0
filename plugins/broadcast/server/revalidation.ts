import type { Entity } from '../../../engine/model.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { WriteOperation } from '../../../runtime/crud/hooks.js';
import { eq } from 'drizzle-orm';

type Row = Record<string, unknown>;

/**
 * A committed write, as every server process passes it on: which entity, which rows, and — for a private owned
 * entity — the subjects owning the row. What reaches a browser is `{ module, route, operation, ids }` only:
 * never row data.
 */
export interface RevalidationEvent {
  module: string;
  route: string;
  entity: string;
  operation: WriteOperation;
  ids: string[];
  /** the entity is not readable by anonymous visitors */
  private: boolean;
  /** for a private entity with an owner: the subjects the row belongs to (the only subjects told, besides admins) */
  owners?: string[];
}

/** what a browser receives */
export const wireOf = (e: RevalidationEvent) => ({ module: e.module, route: e.route, operation: e.operation, ids: e.ids });

/** the subjects owning a row, by the model's ownership (a reference to the subject, a chain of owned rows, or a relation) */
export async function ownersOf(ctx: PluginContext, entity: Entity, row: Row, depth = 0): Promise<string[]> {
  const o = entity.owner;
  if (!o || depth > 4) return [];
  if (o.kind === 'self') return typeof row.id === 'string' ? [row.id] : [];
  let named: string[];
  if (o.kind === 'field') named = typeof row[o.field] === 'string' ? [row[o.field] as string] : [];
  else {
    const rt = ctx.database.tables[o.relation];
    const links: Row[] = await ctx.database.db.select({ s: rt[o.subjectField] }).from(rt).where(eq(rt[o.targetField], row.id));
    named = links.map((l) => l.s as string);
  }
  if (o.target === 'rbac/subject') return [...new Set(named)];
  // the owner named is a row of an owned entity (an order line's order, an invoice's payment intent): its owners
  const parentEntity = ctx.model.byId[o.target];
  const owners: string[] = [];
  for (const id of new Set(named)) {
    const parent = await ctx.repo.get(parentEntity, id);
    if (parent) owners.push(...(await ownersOf(ctx, parentEntity, parent, depth + 1)));
  }
  return [...new Set(owners)];
}

/**
 * The events of one committed write: the entity's rows and, for a delete, every entity that references it
 * (their rows went with it by cascade, without a hook of their own), with unknown ids.
 */
export async function eventsOf(ctx: PluginContext, entity: Entity, operation: WriteOperation, row: Row, previous?: Row): Promise<RevalidationEvent[]> {
  const isPrivate = entity.access !== 'public';
  const owners = isPrivate && entity.owner ? [...new Set([...(await ownersOf(ctx, entity, row)), ...(previous && previous !== row ? await ownersOf(ctx, entity, previous) : [])])] : undefined;
  const events: RevalidationEvent[] = [{ module: entity.module, route: entity.route, entity: entity.id, operation, ids: [row.id as string], private: isPrivate, ...(owners && { owners }) }];
  if (operation === 'delete') {
    for (const other of ctx.model.entities) {
      if (other.id === entity.id || !other.fields.some((f) => f.kind === 'reference' && f.target === entity.id)) continue;
      const priv = other.access !== 'public';
      // a private owned entity's cascaded rows have owners no one can look up any more: admins only
      events.push({ module: other.module, route: other.route, entity: other.id, operation: 'delete', ids: [], private: priv, ...(priv && other.owner && { owners: [] }) });
    }
  }
  return events;
}

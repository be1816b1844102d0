import type { Entity, Field, Model } from '../../engine/model.js';
import { camel } from '../../engine/model.js';
import type { Drizzle } from '../db/index.js';
import type { Repository } from './repository.js';
// where an expanded row says how many rows a relation read in part (FIRST) has: the storefront reads it too
import { countKey } from '../../web/storefront/paging.js';

type Row = Record<string, unknown> & { id: string };

export interface Link {
  relation: Entity;
  /** the field pointing back at the expanded entity */
  near: Field;
  /** the field pointing at the far end */
  far: Field;
  target: Entity;
  /** e.g. widgetsToSliders */
  key: string;
  /** e.g. slider */
  end: string;
  /** a relation read from its far end (`expandBack`): its other end is attached but not expanded further */
  back?: boolean;
}

const cache = new WeakMap<Model, Map<string, Link[]>>();

/**
 * the public relations an entity is the first side of, with their public far ends; and those it is the far side of
 * that say `expandBack`, with their first side as the end
 */
export function linksOf(model: Model, entity: Entity): Link[] {
  let byEntity = cache.get(model);
  if (!byEntity) cache.set(model, (byEntity = new Map()));
  let links = byEntity.get(entity.id);
  if (!links) {
    links = [];
    for (const relation of model.entities) {
      if (!relation.relation || relation.relation.length < 2 || relation.access !== 'public') continue;
      const [near, far] = relation.relation.map((n) => relation.fields.find((f) => f.name === n)!);
      const target = model.byId[far.target!];
      if (near.target === entity.id && target.access === 'public') {
        links.push({ relation, near, far, target, key: camel(relation.route), end: far.name.replace(/Id$/, '') });
      } else if (relation.expandBack && far.target === entity.id && model.byId[near.target!]?.access === 'public') {
        links.push({ relation, near: far, far: near, target: model.byId[near.target!], key: camel(relation.route), end: near.name.replace(/Id$/, ''), back: true });
      }
    }
    byEntity.set(entity.id, links);
  }
  return links;
}

/** where a plan names the fields to read of its rows (a symbol: no relation key can be it) */
export const FIELDS: unique symbol = Symbol('fields');
/**
 * On the plan below a relation's far end: read only the first FIRST rows of the relation for each row (relation
 * order), and set `countKey(key)` on each row to how many it has
 */
export const FIRST: unique symbol = Symbol('first');
export { countKey };

/**
 * Which relations `expand` walks: a relation's key (as on the rows) → the plan below its far end; a key left out is
 * not walked; undefined (at the top or under a key) walks every relation, `depth` levels deep. `[FIELDS]`, where
 * given, names the fields to read of the far end's rows (their id always): a plan without it reads every public one.
 * @example { widgetsToArticles: { articlesToFileStorageModuleFiles: undefined, [FIELDS]: ['title'] } }
 */
export type ExpandPlan = { [relationKey: string]: ExpandPlan | undefined; [FIELDS]?: readonly string[]; [FIRST]?: number };

/** the plan that walks what either walks and reads the fields either reads (undefined, everything, when either is) */
export function mergePlans(a: ExpandPlan | undefined, b: ExpandPlan | undefined): ExpandPlan | undefined {
  if (!a || !b) return undefined;
  if (a === b) return a;
  // plans are never changed once made (LearnedReads keeps each until a render reads something new): a merge of the
  // same two is made once
  let withA = merged.get(a);
  if (!withA) merged.set(a, (withA = new WeakMap()));
  let out = withA.get(b);
  if (!out) withA.set(b, (out = mergeTwo(a, b)));
  return out;
}
const merged = new WeakMap<ExpandPlan, WeakMap<ExpandPlan, ExpandPlan>>();

function mergeTwo(a: ExpandPlan, b: ExpandPlan): ExpandPlan {
  const out: ExpandPlan = { ...a };
  for (const [key, sub] of Object.entries(b)) out[key] = Object.hasOwn(a, key) ? mergePlans(a[key], sub) : sub;
  const fields = a[FIELDS] && b[FIELDS] ? [...new Set([...a[FIELDS], ...b[FIELDS]])] : undefined;
  if (fields) out[FIELDS] = fields;
  else delete out[FIELDS];
  // a relation read in part only where both read it in part
  if (a[FIRST] !== undefined && b[FIRST] !== undefined) out[FIRST] = Math.max(a[FIRST], b[FIRST]);
  else delete out[FIRST];
  return out;
}

/** whether walking `used` read everything `wanted` walks, every field it reads included */
export function coversPlan(used: ExpandPlan | undefined, wanted: ExpandPlan | undefined): boolean {
  if (!used || used === wanted) return true;
  if (!wanted) return false;
  const fields = used[FIELDS];
  if (fields && (!wanted[FIELDS] || wanted[FIELDS].some((f) => !fields.includes(f)))) return false;
  const first = used[FIRST];
  if (first !== undefined && (wanted[FIRST] === undefined || wanted[FIRST] > first)) return false;
  return Object.entries(wanted).every(([key, sub]) => Object.hasOwn(used, key) && coversPlan(used[key], sub));
}

/**
 * Attaches to each row, for every public relation it is the first side of, the relation rows
 * (ordered by orderIndex) with their far end under the far field's name — recursively, `depth`
 * levels deep. One query per relation and level for the relation rows with their far ends (Repository.readLinked, a
 * join), whatever the number of rows: never one query per row. `linkFields` names the fields to read of a relation's
 * rows (their id always; the two ends must be among them), where not every public one is needed.
 * @example await expand(repo, db, model.byId['website-builder/widget'], widgets, 4)
 *   // widgets[0].widgetsToSliders[0].slider.slidersToSlides[0].slide
 */
export async function expand(repo: Repository, db: Drizzle, entity: Entity, rows: Row[], depth = 4, onRead?: (entity: Entity) => void, plan?: ExpandPlan, linkFields?: (link: Link) => readonly string[]): Promise<Row[]> {
  onRead?.(entity);
  if (depth <= 0 || !rows.length) return rows;
  const ids = rows.map((r) => r.id);
  for (const link of linksOf(repo.model, entity)) {
    // a plan names the relations to walk; one it leaves out is not read at all (its key stays off the rows)
    if (plan && !Object.hasOwn(plan, link.key)) continue;
    onRead?.(link.relation);
    // the relation's rows and their far ends in one read (only the first of each row's, and how many there are,
    // where the plan says so: counted first, so that the read is cut only where a row has more; a short relation is
    // read the usual way, whose statement is kept)
    const first = plan?.[link.key]?.[FIRST];
    const counts = first === undefined ? undefined : await repo.countLinked(db, link, ids);
    const cut = counts && [...counts.values()].some((n) => n > first!);
    const { links, ends: found } = await repo.readLinked(db, link, ids, linkFields?.(link), plan?.[link.key]?.[FIELDS], cut ? { first: first! } : undefined);
    const rels = links as Row[];
    if (counts) for (const r of rows) r[countKey(link.key)] = counts.get(r.id) ?? 0;
    if (!rels.length) {
      for (const r of rows) r[link.key] = [];
      continue;
    }
    const ends = new Map((await expand(repo, db, link.target, found as Row[], link.back ? 0 : depth - 1, onRead, plan?.[link.key], linkFields)).map((t) => [t.id, t]));
    for (const r of rows) {
      r[link.key] = rels
        .filter((x) => x[link.near.name] === r.id && ends.has(x[link.far.name] as string))
        .map((x) => ({ ...x, [link.end]: ends.get(x[link.far.name] as string) }));
    }
  }
  return rows;
}

import type { Block, PageData, ShippedPage } from '../../../web/storefront/page.js';
import type { Expanded } from '../../../web/storefront/context.js';
import { countKey, moreKey, ROWS_SHOWN, SHOWN_IN_PAGES, type More } from '../../../web/storefront/paging.js';
import type { Entity, Model } from '../../../engine/model.js';
import { FIELDS, FIRST, linksOf, type ExpandPlan } from '../../../runtime/crud/expand.js';

type Obj = Record<string | symbol, unknown>;

/**
 * what every row keeps whatever a render read: its id, which widgets use after rendering too (to post a form, add to
 * a cart) and may not read while rendering on the server (a signed-in subject's cart is the browser's). Its variant
 * is kept where a render read it (`Variant` picks a component by it), like any other field.
 */
const ALWAYS = new Set(['id']);

/**
 * What the page data ships: the fields its widgets read while the server rendered it (issue 11: the page data
 * carries only what widgets draw). The server renders through proxies that note each field read, by where it
 * sits — the widget's module and variant, then the relations walked and the field, never the row's index — so a
 * field read on one slide, card or line is kept on every one of them (a slider shows another slide later, from the
 * same data). A row enumerated (`Object.keys`, a spread) keeps everything. The browser hydrates from the kept
 * fields and reads the same ones: a render is a function of its data.
 *
 * A widget that reads a field only after hydration (in an effect or an event handler) must read it while rendering
 * too (compute it at the top of the component), or it is not shipped; `id` always is. The head (title, meta) is in
 * the HTML and not in the page data.
 */
/** where a widget row's reads are noted: its module and variant */
export const blockRoot = (module: string, variant: unknown) => `${module}:${String(variant)}`;
/** where the reads of a row the url names are noted: its key ('blog.article'), with no dot in it */
export const paramRoot = (key: string) => `param:${key.replace('.', '/')}`;

/** a place reads are noted at: a root, then a field, a relation, an end, a field… (`path` spells it out) */
interface ReadNode {
  path: string;
  /** the row was enumerated: everything under it is kept */
  all: boolean;
  children: Map<string, ReadNode>;
  /** a relation's rows a render showed a page at a time (useShowMore): the page data ships the first ROWS_SHOWN */
  paged?: boolean;
  /** a render read a value of a row past the first ROWS_SHOWN of this relation: every row is shipped */
  readPast?: boolean;
}
/** how many rows the relation `key` of `row` has: its count where the assembly read only its first (expand's FIRST) */
const rowsIn = (row: Record<string, unknown>, key: string) => {
  const counted = row[countKey(key)];
  return typeof counted === 'number' ? counted : Array.isArray(row[key]) ? (row[key] as unknown[]).length : 0;
};
/** a relation the page data ships only the first page of */
const pagedOut = (node: ReadNode | undefined, total: number) => !!node?.paged && !node.readPast && total > ROWS_SHOWN;
/** where a relation's rows were shown a page at a time, and where a render read past the first page of them */
const FIRST_PAGE = '$first';
const COUNTED = countKey('');
const ALL_ROWS = '$all';
const NOTHING_READ: ReadNode = { path: '', all: false, children: new Map() };
/** the plan below a relation's end where nothing of its rows was read: their ids, no relation */
const NOTHING_BELOW: ExpandPlan = Object.freeze({ [FIELDS]: Object.freeze([]) as readonly string[] });

/** the key of a place a relation is shown a page at a time: where its row is noted, the row's id, the relation */
export const placeKey = (at: string, rowId: string, relation: string) => `${at}\u0000${rowId}\u0000${relation}`;

export function readTracker() {
  const read = new Set<string>();
  const roots = new Map<string, ReadNode>();
  const proxies = new WeakMap<object, Map<ReadNode, unknown>>();

  const rootNode = (path: string) => {
    let node = roots.get(path);
    if (!node) roots.set(path, (node = { path, all: false, children: new Map() }));
    return node;
  };
  /** the node of a field under `parent`, noted as read the first time (its path is spelled once per render) */
  const childNode = (parent: ReadNode, key: string) => {
    let node = parent.children.get(key);
    if (!node) {
      node = { path: `${parent.path}.${key}`, all: false, children: new Map() };
      parent.children.set(key, node);
      read.add(node.path);
    }
    return node;
  };

  /**
   * `value` watched at `node`. `past` is the relation a row lies past the first ROWS_SHOWN of (or under such a row):
   * a value read there (not a row or a list: `targets` takes every far end of a relation and reads nothing of them)
   * means the render drew more than the first page of it, and the page data ships all of it.
   */
  function watch<T>(value: T, node: ReadNode, past?: ReadNode): T {
    if (!value || typeof value !== 'object') return value;
    let byNode = proxies.get(value);
    if (!byNode) proxies.set(value, (byNode = new Map()));
    // a row past a first page is watched on its own (the same row may also sit in a first page elsewhere)
    const known = past ? undefined : byNode.get(node);
    if (known) return known as T;
    // a list: a plain array of its rows, each watched where the list is noted (its length, indexes and methods are
    // the array's own; a proxy over it trapped every index and method a render's map or filter went through)
    if (Array.isArray(value)) {
      const rows = value.map((v, i) => watch(v, node, past ?? (i >= ROWS_SHOWN ? node : undefined)));
      Object.defineProperty(rows, SHOWN_IN_PAGES, {
        value: () => {
          node.paged = true;
          read.add(`${node.path}.${FIRST_PAGE}`);
        },
      });
      if (!past) byNode.set(node, rows);
      return rows as T;
    }
    const readPast = () => {
      if (!past || past.readPast) return;
      past.readPast = true;
      read.add(`${past.path}.${ALL_ROWS}`);
    };
    // what each property gave the render, watched: page data is not changed while it renders, so a second read of
    // a property is one lookup (a render reads the same fields many times: a title per language check, a url per link)
    const given = new Map<string, unknown>();
    const proxy = new Proxy(value as Obj, {
      get(target, prop) {
        if (typeof prop === 'symbol') return target[prop];
        const seen = given.get(prop);
        if (seen !== undefined || given.has(prop)) return seen;
        const v = target[prop];
        if (past && (v === null || typeof v !== 'object')) readPast();
        const out = watch(v, childNode(node, prop), past);
        given.set(prop, out);
        return out;
      },
      has(target, prop) {
        readPast();
        if (typeof prop === 'string') childNode(node, prop);
        return prop in target;
      },
      ownKeys(target) {
        readPast();
        if (!node.all) {
          node.all = true;
          read.add(`${node.path}.*`);
        }
        return Reflect.ownKeys(target);
      },
    });
    if (!past) byNode.set(node, proxy);
    return proxy as T;
  }

  function keep(value: unknown, node: ReadNode): unknown {
    if (Array.isArray(value)) return (pagedOut(node, value.length) ? value.slice(0, ROWS_SHOWN) : value).map((v) => keep(v, node));
    if (!value || typeof value !== 'object' || node.all) return value;
    const out: Record<string, unknown> = {};
    const row = value as Record<string, unknown>;
    for (const k of Object.keys(row)) {
      const child = node.children.get(k);
      // a relation's count (a render reads it where the assembly read the relation in part) ships as moreKey's total
      if (child && k.endsWith(COUNTED)) continue;
      if (child) {
        // a relation shown a page at a time ships its first page, and how many rows it has
        const total = Array.isArray(row[k]) ? rowsIn(row, k) : 0;
        out[k] = Array.isArray(row[k]) && pagedOut(child, total) ? (row[k] as unknown[]).slice(0, ROWS_SHOWN).map((v) => keep(v, child)) : keep(row[k], child);
        if (pagedOut(child, total)) out[moreKey(k)] = { total, at: node.path } satisfies More;
      } else if (ALWAYS.has(k)) out[k] = keep(row[k], NOTHING_READ);
    }
    return out;
  }

  /** every row the page's reads start from, with the node they are noted at */
  const starts = (data: PageData): [Expanded, ReadNode][] => [
    ...Object.entries(data.context.params).map(([key, row]): [Expanded, ReadNode] => [row, rootNode(rootOf(key))]),
    ...[...data.before, ...data.content, ...data.after].map((b): [Expanded, ReadNode] => [b.widget, rootNode(root(b))]),
  ];

  const root = (b: Block) => blockRoot(b.module, b.widget.variant);
  const rootOf = paramRoot;
  const blocks = (list: Block[], f: (b: Block) => Expanded) => list.map((b) => ({ ...b, widget: f(b) }));
  const params = (p: Record<string, Expanded>, f: (row: Expanded, key: string) => Expanded) => Object.fromEntries(Object.entries(p).map(([k, row]) => [k, f(row, k)]));

  return {
    /** every field read so far, as `root.relation.end.field` paths */
    paths: read,
    /** the data to render from: every widget row and every row the url names, watched */
    watched(data: PageData): PageData {
      return {
        ...data,
        context: { ...data.context, params: params(data.context.params, (row, key) => watch(row, rootNode(rootOf(key)))) },
        before: blocks(data.before, (b) => watch(b.widget, rootNode(root(b)))),
        content: blocks(data.content, (b) => watch(b.widget, rootNode(root(b)))),
        after: blocks(data.after, (b) => watch(b.widget, rootNode(root(b)))),
      };
    },
    /**
     * The place of a relation the render showed a page at a time: the relation `relation` of the row `rowId` placed
     * at `at` (a More's), found in `data`; undefined when there is none such. `keepRows` keeps rows read for it
     * (GET /api/host/pages/rows) as the page keeps its first page.
     */
    placeOf(data: PageData, at: string, rowId: string, relation: string): { keepRows(rows: unknown[]): unknown[] } | undefined {
      const keepRows = this.pagedPlaces(data).get(placeKey(at, rowId, relation));
      return keepRows && { keepRows };
    },
    /**
     * Every such place in `data`, keyed by `placeKey`, each with its `keepRows`: what GET /api/host/pages/rows may be
     * asked about the page, worked out once and kept beside it (the data is not kept). Walks only the rows above a
     * relation shown a page at a time; a row read whole (enumerated) is not walked further.
     */
    pagedPlaces(data: PageData): Map<string, (rows: unknown[]) => unknown[]> {
      const places = new Map<string, (rows: unknown[]) => unknown[]>();
      const shown = (node: ReadNode) => !!node.paged && !node.readPast;
      // the nodes with such a relation below them: nothing else is walked
      const above = new Set<ReadNode>();
      const mark = (node: ReadNode): boolean => {
        let found = false;
        for (const child of node.children.values()) if (mark(child) || shown(child)) found = true;
        if (found) above.add(node);
        return found;
      };
      for (const node of roots.values()) mark(node);
      const visit = (value: unknown, node: ReadNode) => {
        if (!value || typeof value !== 'object' || !above.has(node)) return;
        if (Array.isArray(value)) return value.forEach((v) => visit(v, node));
        const row = value as Record<string, unknown>;
        for (const [k, child] of node.children) {
          if (shown(child) && Array.isArray(row[k])) places.set(placeKey(node.path, String(row.id), k), (rows) => rows.map((v) => keep(v, child)));
          if (!node.all) visit(row[k], child);
        }
      };
      if (above.size) for (const [row, node] of starts(data)) visit(row, node);
      return places;
    },
    /** the same data with only the fields the render read, and not the head (the original is not changed) */
    kept(data: PageData): ShippedPage {
      const { title: _title, meta: _meta, ...page } = data;
      return {
        ...page,
        context: { ...data.context, params: params(data.context.params, (row, key) => keep(row, rootNode(rootOf(key))) as Expanded) },
        before: blocks(data.before, (b) => keep(b.widget, rootNode(root(b))) as Expanded),
        content: blocks(data.content, (b) => keep(b.widget, rootNode(root(b))) as Expanded),
        after: blocks(data.after, (b) => keep(b.widget, rootNode(root(b))) as Expanded),
      };
    },
  };
}

/**
 * The fields read by every render so far (paths as readTracker notes them), and from them the relations worth
 * reading for a widget: `plan` answers which relations a render of that variant walked, so the next assembly of
 * the page expands those and no other (runtime/crud/expand.ts ExpandPlan), and which fields of each row it read,
 * so that the next assembly selects those columns and no other (a page's rows carry every language of every text,
 * most of which no widget draws). Where nothing was read yet (the first render of a variant) the plan is undefined:
 * everything, as before; below a relation renders read but found empty, the plan reads its rows' ids and walks
 * nothing (another variant's plan merged with "everything" there made the whole relation read every column of every
 * row, and every relation below it). The host checks
 * after each render that the render read nothing outside the plan it was assembled with, and renders again with
 * the grown plan when it did (a row that now has what an earlier one had not), so a plan only ever saves work.
 */
export class LearnedReads {
  private paths = new Set<string>();
  private under = new Set<string>();
  /** plans worked out since the last new path, by entity and path (a plan is never changed once made) */
  private plans = new Map<string, ExpandPlan | undefined>();

  add(paths: Iterable<string>) {
    for (const path of paths) {
      if (this.paths.has(path)) continue;
      this.paths.add(path);
      this.plans.clear();
      for (let at = path.lastIndexOf('.'); at > 0; at = path.lastIndexOf('.', at - 1)) {
        const prefix = path.slice(0, at);
        if (this.under.has(prefix)) break;
        this.under.add(prefix);
      }
    }
  }

  /** the relations of `entity` read below the root `path`, each with its own plan */
  plan(model: Model, entity: Entity, path: string): ExpandPlan | undefined {
    return this.planAt(model, entity, path, false);
  }

  /** the plan below a relation's far end at `path` */
  private endPlan(model: Model, entity: Entity, path: string): ExpandPlan | undefined {
    return this.planAt(model, entity, path, true);
  }

  /** the plan at `path`, worked out once until a render reads a new path */
  private planAt(model: Model, entity: Entity, path: string, end: boolean): ExpandPlan | undefined {
    const key = `${entity.id}\u0000${path}`;
    if (this.plans.has(key)) return this.plans.get(key);
    const plan = this.planned(model, entity, path, end);
    this.plans.set(key, plan);
    return plan;
  }

  private planned(model: Model, entity: Entity, path: string, end = false): ExpandPlan | undefined {
    if (this.paths.has(`${path}.*`)) return undefined;
    // a relation renders walked and found empty (or whose rows they only counted): its rows' ids, nothing below; a
    // render that reads more of them once a row has some is a miss, drawn again with what it read (as with fields)
    if (!this.under.has(path)) return end ? NOTHING_BELOW : undefined;
    const plan: ExpandPlan = {};
    for (const link of linksOf(model, entity)) {
      const rel = `${path}.${link.key}`;
      if (!this.paths.has(rel)) continue;
      const below = this.endPlan(model, link.target, `${rel}.${link.end}`);
      // a relation renders showed a page at a time, and never read past its first page: its first page and one
      // row more (a render that reads that one is drawn again with every row), and how many it has
      plan[link.key] = below && this.paths.has(`${rel}.${FIRST_PAGE}`) && !this.paths.has(`${rel}.${ALL_ROWS}`) ? { ...below, [FIRST]: ROWS_SHOWN + 1 } : below;
    }
    // the fields read of these rows: only those are selected (and id); one read later makes the render a miss
    plan[FIELDS] = entity.fields.filter((f) => this.paths.has(`${path}.${f.name}`) || this.under.has(`${path}.${f.name}`)).map((f) => f.name);
    return plan;
  }
}

/**
 * Long relations shown a page at a time (useShowMore in blocks.tsx): what the storefront's components and the
 * server's page reads (plugins/host/server/reads.ts) share. No React here: the server loads it with the API.
 */

import type { Expanded } from './context.js';

/** where a list `targets` made comes from: the row, its relation and the far end (useShowMore pages the list by it) */
export interface Listed {
  row: Expanded;
  relation: string;
  end: string;
  /** the relation's rows as the page data holds them */
  rows: Expanded[];
}
/** on a list `targets` made: its Listed */
export const LISTED: unique symbol = Symbol('listed');
/**
 * On the server, on the rows of a relation a render watches (plugins/host/server/reads.ts): called by a render that
 * shows them a page at a time (useShowMore), so that the page data ships the first page of them and says how many
 * there are (`moreKey`) instead of every row.
 */
export const SHOWN_IN_PAGES = Symbol.for('storefront.shownInPages');
/** how many rows of a relation shown a page at a time the page data carries, and how many each 'Show more' adds */
export const ROWS_SHOWN = 24;
/** beside a relation shown a page at a time, when the page data carries only its first rows: how many it has, and where (reads.ts) */
export interface More {
  total: number;
  /** the place of the row that has the relation, as the page's reads note it (GET /api/host/pages/rows?at=) */
  at: string;
}
export const moreKey = (relation: string) => `${relation}$more`;
/**
 * On a row as the server assembles it, where a relation was read in part (its first rows: runtime/crud/expand.ts
 * FIRST): how many rows it has. The page data ships `moreKey` instead.
 */
export const countKey = (relation: string) => `${relation}$count`;

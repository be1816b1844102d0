import type { EntityInfo, FieldInfo, FindParams, Row } from '../api.js';
import { searchColumns } from './columns.js';

/** what a list shows: search, filters, sort and page; the page's address holds it (?q=…&page=…&sort=…&f.type=…) */
export interface TableState {
  q: string;
  /** 0-based */
  page: number;
  size: number;
  sort: { id: string; desc: boolean }[];
  /** field → value; a date range as '<field>.from' and '<field>.to' (YYYY-MM-DD) */
  filters: Record<string, string>;
}

export const PAGE_SIZES = [10, 20, 50, 100];
export const DEFAULT_STATE: TableState = { q: '', page: 0, size: 20, sort: [], filters: {} };

export function stateFromQuery(query: URLSearchParams): TableState {
  const page = Math.max(0, (Number.parseInt(query.get('page') ?? '1', 10) || 1) - 1);
  const size = Number(query.get('size'));
  const filters: Record<string, string> = {};
  for (const [k, v] of query) if (k.startsWith('f.') && v !== '') filters[k.slice(2)] = v;
  return {
    q: query.get('q') ?? '',
    page,
    size: PAGE_SIZES.includes(size) ? size : DEFAULT_STATE.size,
    sort: (query.get('sort') ?? '').split(',').filter(Boolean).map((s) => ({ id: s.replace(/^-/, ''), desc: s.startsWith('-') })),
    filters,
  };
}

export function stateToQuery(s: TableState): string {
  const q = new URLSearchParams();
  if (s.q) q.set('q', s.q);
  for (const [k, v] of Object.entries(s.filters)) if (v !== '') q.set(`f.${k}`, v);
  if (s.sort.length) q.set('sort', s.sort.map((x) => (x.desc ? `-${x.id}` : x.id)).join(','));
  if (s.page) q.set('page', String(s.page + 1));
  if (s.size !== DEFAULT_STATE.size) q.set('size', String(s.size));
  return q.toString();
}

type Filter = NonNullable<NonNullable<FindParams<Row>['filters']>['and']>[number];

/** a local calendar day as the instant it starts */
const dayStart = (day: string, offset = 0) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  // setFullYear: the Date constructor reads the years 0 to 99 as 1900 to 1999
  const start = new Date(2000, 0, 1);
  start.setFullYear(y, m - 1, d + offset);
  return start.toISOString();
};

/**
 * the server filters of a list: its fixed filter, the chosen ones (all must hold) and the search (any column
 * contains it, or the row is one of `searchIds`: the rows whose owned rows contain it)
 */
export function listFilters(entity: EntityInfo, state: TableState, languages: string[], fixed?: { column: string; value: string }, searchIds: string[] = []): FindParams<Row>['filters'] {
  const and: Filter[] = fixed ? [{ column: fixed.column, method: 'eq', value: fixed.value }] : [];
  for (const [key, value] of Object.entries(state.filters)) {
    const [name, bound] = key.split('.') as [string, string | undefined];
    const f: FieldInfo | undefined = entity.fields.find((x) => x.name === name);
    if (!f || value === '') continue;
    if (f.kind === 'date' && bound) and.push({ column: name, method: bound === 'from' ? 'gte' : 'lte', value });
    else if (f.kind === 'datetime' && bound) and.push(bound === 'from' ? { column: name, method: 'gte', value: dayStart(value) } : { column: name, method: 'lt', value: dayStart(value, 1) });
    else if (f.kind === 'boolean') and.push({ column: name, method: 'eq', value: value === 'true' });
    else if (!bound) and.push({ column: name, method: 'eq', value });
  }
  const term = state.q.trim();
  return {
    ...(and.length && { and }),
    ...(term && {
      or: [
        ...searchColumns(entity, languages).map((column) => ({ column, method: 'ilike' as const, value: term })),
        ...(searchIds.length ? [{ column: 'id', method: 'inArray' as const, value: searchIds }] : []),
      ],
    }),
  };
}

import { QueryClient } from '@tanstack/react-query';
import qs from 'qs';
import { ApiError, createHttp, type FindParams } from '../../runtime/client/index.js';

export type { FindParams };

export const REFRESH_KEY = 'rbac.subject.refresh';

/** at most this many requests in flight (spec §7) */
const MAX_CONCURRENT = 5;
let active = 0;
const queue: (() => void)[] = [];
async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (active >= MAX_CONCURRENT) await new Promise<void>((r) => queue.push(r));
  active++;
  try {
    return await fn();
  } finally {
    active--;
    queue.shift()?.();
  }
}

const raw = createHttp({ baseUrl: '' });

const sessionEnded = new Set<() => void>();
/**
 * Calls `listener` when a request is refused for want of a session that no refresh brings back (signed out
 * elsewhere, the password changed, the refresh token expired); answers the unsubscribe.
 */
export function onSessionEnded(listener: () => void): () => void {
  sessionEnded.add(listener);
  return () => void sessionEnded.delete(listener);
}

/**
 * every admin request: same origin, the session cookie, five at a time; a 401 tries one refresh, and when that
 * fails too the session has ended (onSessionEnded)
 */
export const http = {
  async request<T>(method: string, path: string, init?: Parameters<typeof raw.request>[2]): Promise<T> {
    try {
      return await limited(() => raw.request<T>(method, path, init));
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 401) throw e;
      if (await refreshSession()) return limited(() => raw.request<T>(method, path, init));
      for (const listener of sessionEnded) listener();
      throw e;
    }
  },
};

let refreshing: Promise<boolean> | undefined;
/** swaps the stored refresh token for a new session cookie; false when there is none or it failed */
export function refreshSession(): Promise<boolean> {
  const refresh = localStorage.getItem(REFRESH_KEY);
  if (!refresh) return Promise.resolve(false);
  refreshing ??= raw
    .request<{ refresh: string }>('POST', '/api/rbac/subjects/authentication/refresh', { data: { refresh } })
    .then((r) => {
      localStorage.setItem(REFRESH_KEY, r.refresh);
      return true;
    })
    .catch(() => {
      localStorage.removeItem(REFRESH_KEY);
      return false;
    })
    .finally(() => (refreshing = undefined));
  return refreshing;
}

/** query caching as spec §7 gives it */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, gcTime: 86_400_000, refetchOnWindowFocus: false, refetchOnReconnect: false, retry: 1 },
    },
  });
}

export interface FieldInfo {
  name: string;
  kind: string;
  title?: string;
  description?: string;
  required: boolean;
  secret: boolean;
  common: boolean;
  unique: boolean;
  target?: string;
  /** for references: what deleting the target does to this row */
  onDelete?: 'cascade' | 'set null' | 'restrict';
  values?: string[];
  format?: string;
  default?: unknown;
  generate?: string;
  widget: string;
  /** the manifest's field access, and what it means for the signed-in account (absent: may) */
  access?: { read?: string[]; write?: string[] } | null;
  readable?: boolean;
  writable?: boolean;
}

export interface EntityInfo {
  id: string;
  module: string;
  name: string;
  route: string;
  title: string;
  description?: string;
  access: string;
  variants: string[];
  defaultVariant: string;
  relation: string[] | null;
  /** how a subject owns rows: 'through' names the relation linking rbac/subject to this entity */
  owner?: { kind: 'self' } | { kind: 'field'; field: string; target: string } | { kind: 'through'; relation: string; subjectField: string; targetField: string } | null;
  fields: FieldInfo[];
  schemas: { create: Record<string, unknown>; update: Record<string, unknown> };
}

export interface ModelInfo {
  languages: string[];
  defaultLanguage: string;
  modules: string[];
  entities: EntityInfo[];
}

export type Row = Record<string, unknown> & { id: string };
export const pathOf = (e: EntityInfo) => `/api/${e.module}/${e.route}`;

/** a list with the total that matches (the X-Total-Count header), in one request */
export interface Page {
  rows: Row[];
  total: number;
}

async function findWithTotal(e: EntityInfo, params: FindParams<Row>): Promise<Page> {
  const search = qs.stringify(params, { encodeValuesOnly: true });
  const go = () =>
    limited(async () => {
      const res = await fetch(`${pathOf(e)}${search ? `?${search}` : ''}`, { credentials: 'include' });
      if (res.ok) {
        const body = (await res.json()) as { data: Row[] };
        const header = Number(res.headers.get('x-total-count'));
        return { rows: body.data, total: Number.isFinite(header) && res.headers.has('x-total-count') ? header : body.data.length };
      }
      let body: { message?: string; cause?: { message: string; field?: string; rule?: string }[] } = {};
      try {
        body = await res.json();
      } catch {
        /* not JSON */
      }
      throw new ApiError([body.message, ...(body.cause ?? []).map((c) => c.message), `${res.status} | ${res.statusText}`].filter(Boolean).join(' | '), res.status, body.cause);
    });
  try {
    return await go();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && (await refreshSession())) return go();
    throw err;
  }
}

export const entityApi = (e: EntityInfo) => ({
  find: (params: FindParams<Row>) => http.request<Row[]>('GET', pathOf(e), { query: params }),
  /** a page of rows and how many match in all */
  page: (params: FindParams<Row>) => findWithTotal(e, params),
  count: (params: Pick<FindParams<Row>, 'filters'>) => http.request<number>('GET', `${pathOf(e)}/count`, { query: params }),
  findById: (id: string) => http.request<Row>('GET', `${pathOf(e)}/${id}`),
  /** the rows with these ids (one request), e.g. to show the titles of referenced rows */
  byIds: (ids: string[]) => (ids.length ? http.request<Row[]>('GET', pathOf(e), { query: { filters: { and: [{ column: 'id', method: 'inArray', value: ids }] }, limit: Math.min(ids.length, 1000) } }) : Promise.resolve([])),
  create: (data: Record<string, unknown>) => http.request<Row>('POST', pathOf(e), { data }),
  bulkCreate: (data: Record<string, unknown>[]) => http.request<Row[]>('POST', `${pathOf(e)}/bulk`, { data }),
  update: (id: string, data: Record<string, unknown>) => http.request<Row>('PATCH', `${pathOf(e)}/${id}`, { data }),
  bulkUpdate: (data: (Record<string, unknown> & { id: string })[]) => http.request<Row[]>('PATCH', `${pathOf(e)}/bulk`, { data }),
  delete: (id: string) => http.request<Row>('DELETE', `${pathOf(e)}/${id}`),
});

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);

/**
 * The text a row is known by: adminTitle, else its title in the given language (then any language), else a
 * name, email or account, else slug, else id.
 */
export function labelOf(row: Record<string, unknown> | undefined, language = 'en'): string {
  if (!row) return '';
  const admin = text(row.adminTitle);
  if (admin) return admin;
  const title = row.title;
  if (title && typeof title === 'object') {
    const map = title as Record<string, unknown>;
    const t = text(map[language]) ?? Object.values(map).map(text).find(Boolean);
    if (t) return t;
  }
  return text(title) ?? text(row.name) ?? text(row.email) ?? text(row.account) ?? text(row.slug) ?? String(row.id ?? '');
}

import { QueryClient } from '@tanstack/react-query';
import { ApiError, createHttp, type FindParams } from '../../runtime/client/index.js';

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

/** every admin request: same origin, the session cookie, five at a time; a 401 tries one refresh */
export const http = {
  async request<T>(method: string, path: string, init?: Parameters<typeof raw.request>[2]): Promise<T> {
    try {
      return await limited(() => raw.request<T>(method, path, init));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401 && (await refreshSession())) return limited(() => raw.request<T>(method, path, init));
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

export const entityApi = (e: EntityInfo) => ({
  find: (params: FindParams<Row>) => http.request<Row[]>('GET', pathOf(e), { query: params }),
  count: (params: Pick<FindParams<Row>, 'filters'>) => http.request<number>('GET', `${pathOf(e)}/count`, { query: params }),
  findById: (id: string) => http.request<Row>('GET', `${pathOf(e)}/${id}`),
  create: (data: Record<string, unknown>) => http.request<Row>('POST', pathOf(e), { data }),
  update: (id: string, data: Record<string, unknown>) => http.request<Row>('PATCH', `${pathOf(e)}/${id}`, { data }),
  delete: (id: string) => http.request<Row>('DELETE', `${pathOf(e)}/${id}`),
});

/** the text a row is known by: adminTitle, else title in the default language, else slug, else id */
export function labelOf(row: Record<string, unknown> | undefined, language = 'en'): string {
  if (!row) return '';
  if (typeof row.adminTitle === 'string' && row.adminTitle) return row.adminTitle;
  const title = row.title;
  if (title && typeof title === 'object') {
    const t = (title as Record<string, string>)[language] ?? Object.values(title as Record<string, string>)[0];
    if (t) return t;
  }
  if (typeof title === 'string' && title) return title;
  if (typeof row.slug === 'string' && row.slug) return row.slug;
  return String(row.id ?? '');
}

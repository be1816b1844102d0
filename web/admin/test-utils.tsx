import { useState, type ReactNode } from 'react';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import qs from 'qs';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster, toast } from 'sonner';
import { loadModel } from '../../engine/load.js';
import { ROOT } from '../../engine/codegen.js';
import { adminModel } from '../../runtime/http/model-route.js';
import type { ModelInfo, Row } from './api.js';
import { ModelProvider } from './model.js';
import { RouterProvider } from './router.js';
import { registerGenericAdmin } from './generic/index.js';

/** test helpers for the admin's component tests (not a test file itself) */

let cached: ModelInfo | undefined;
/** the model exactly as GET /api/admin/model sends it to an admin, from the manifests */
export function model(): ModelInfo {
  cached ??= structuredClone(adminModel(loadModel(join(ROOT, 'schemas')))) as unknown as ModelInfo;
  return cached;
}
export const entity = (id: string) => model().entities.find((e) => e.id === id)!;

type Filter = { column: string; method: string; value?: unknown };
const valueAt = (row: Row, column: string) => {
  const [name, lang] = column.split('.') as [string, string | undefined];
  const v = row[name];
  return lang && v && typeof v === 'object' ? (v as Record<string, unknown>)[lang] : v;
};
function holds(row: Row, f: Filter): boolean {
  const v = valueAt(row, f.column);
  const s = (x: unknown) => (x === null || x === undefined ? '' : String(x));
  switch (f.method) {
    case 'eq': return s(v) === s(f.value);
    case 'ne': return s(v) !== s(f.value);
    case 'inArray': return ([] as unknown[]).concat(f.value ?? []).map(s).includes(s(v));
    case 'ilike': return s(v).toLowerCase().includes(s(f.value).toLowerCase());
    case 'like': return s(v).includes(s(f.value));
    case 'gte': return s(v) >= s(f.value);
    case 'gt': return s(v) > s(f.value);
    case 'lte': return s(v) <= s(f.value);
    case 'lt': return s(v) < s(f.value);
    case 'isNull': return v === null || v === undefined;
    default: throw new Error(`fake API: no method ${f.method}`);
  }
}

export interface FakeCall { method: string; path: string; query: Record<string, unknown>; data: unknown }

/**
 * The generic CRUD API in memory, as the server answers it (lists with X-Total-Count, filters and/or,
 * orderBy, limit/offset, count, by id, create, update, delete, bulk), for component tests: fetch is stubbed
 * with it. `fail(key, status, body)` makes the next call of 'METHOD /path' answer an error.
 */
export function fakeApi(tables: Record<string, Record<string, unknown>[]> = {}) {
  const m = model();
  const rows = new Map<string, Row[]>();
  const byPath = new Map(m.entities.map((e) => [`/api/${e.module}/${e.route}`, e]));
  let clock = Date.parse('2026-03-01T10:00:00.000Z');
  const stamp = () => new Date(clock++).toISOString();
  for (const [id, list] of Object.entries(tables)) rows.set(id, list.map((r) => ({ id: randomUUID(), createdAt: stamp(), updatedAt: stamp(), ...r }) as Row));
  const calls: FakeCall[] = [];
  const failures = new Map<string, { status: number; body: unknown }>();
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  const table = (id: string) => (rows.has(id) ? rows.get(id)! : (rows.set(id, []), rows.get(id)!));
  const unique = (entityId: string, data: Record<string, unknown>, self?: string) => {
    const e = m.entities.find((x) => x.id === entityId)!;
    for (const f of e.fields.filter((x) => x.unique)) {
      if (data[f.name] !== undefined && table(entityId).some((r) => r.id !== self && r[f.name] === data[f.name])) return { field: f.name, rule: 'unique', message: `${f.name} is already taken` };
    }
    return undefined;
  };
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://admin.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const query = qs.parse(url.search.slice(1)) as Record<string, unknown>;
    const data = typeof init.body === 'string' ? JSON.parse(init.body).data : undefined;
    calls.push({ method, path: url.pathname, query, data });
    const failure = failures.get(`${method} ${url.pathname}`);
    if (failure) {
      failures.delete(`${method} ${url.pathname}`);
      return json(failure.status, failure.body);
    }
    if (url.pathname === '/api/admin/model') return json(200, { data: m });
    if (url.pathname === '/api/file-storage/files/upload' && init.body instanceof FormData) {
      // what the server answers for an accepted upload (it judges the type by the bytes; here by the declared type)
      const file = init.body.get('file') as File;
      const extension = file.type.split('/')[1] === 'jpeg' ? 'jpg' : file.type.split('/')[1];
      const name = `/files/${randomUUID()}.${extension}`;
      return json(201, { data: { url: name, file: name, mimeType: file.type, extension, size: file.size } });
    }
    if (url.pathname === '/api/rbac/subjects/authentication/me') return json(200, { data: { id: 's', isAdmin: true, identities: [{ email: 'editor@example.com', provider: 'email_and_password' }], roles: [{ slug: 'admin', title: 'Administrator' }] } });
    const match = /^(\/api\/[^/]+\/[^/]+)(?:\/([^/]+))?$/.exec(url.pathname);
    const e = match && byPath.get(match[1]!);
    if (!e) return json(404, { message: 'Not found', status: 404 });
    const list = table(e.id);
    const sub = match![2];
    const filters = (query.filters ?? {}) as { and?: Filter[]; or?: Filter[] };
    const where = (r: Row) => (filters.and ?? []).every((f) => holds(r, f)) && (!filters.or?.length || filters.or.some((f) => holds(r, f)));
    if (method === 'GET' && sub === 'count') return json(200, { data: list.filter(where).length });
    if (method === 'GET' && !sub) {
      const order = ((query.orderBy as { and?: { column: string; method: string }[] } | undefined)?.and ?? [{ column: 'createdAt', method: 'asc' }]);
      const found = list.filter(where).sort((a, b) => {
        for (const o of order) {
          const x = valueAt(a, o.column), y = valueAt(b, o.column);
          const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''));
          if (c) return o.method === 'desc' ? -c : c;
        }
        return 0;
      });
      const offset = Number(query.offset ?? 0);
      const limit = Number(query.limit ?? 1000);
      return json(200, { data: found.slice(offset, offset + limit) }, { 'x-total-count': String(found.length) });
    }
    if (method === 'GET') {
      const row = list.find((r) => r.id === sub);
      return row ? json(200, { data: row }) : json(404, { message: `No ${e.id} with id ${sub}`, status: 404 });
    }
    if (method === 'POST' && (!sub || sub === 'bulk')) {
      const items = (sub === 'bulk' ? data : [data]) as Record<string, unknown>[];
      for (const d of items) {
        const clash = unique(e.id, d);
        if (clash) return json(409, { message: clash.message, status: 409, cause: [clash] });
      }
      const made = items.map((d) => ({ id: randomUUID(), createdAt: stamp(), updatedAt: stamp(), ...d }) as Row);
      list.push(...made);
      return json(201, { data: sub === 'bulk' ? made : made[0] });
    }
    if (method === 'PATCH') {
      const items = (sub === 'bulk' ? data : [{ ...data, id: sub }]) as (Record<string, unknown> & { id: string })[];
      const out: Row[] = [];
      for (const d of items) {
        const row = list.find((r) => r.id === d.id);
        if (!row) return json(404, { message: 'Not found', status: 404 });
        const clash = unique(e.id, d, row.id);
        if (clash) return json(409, { message: clash.message, status: 409, cause: [clash] });
        Object.assign(row, d, { updatedAt: stamp() });
        out.push(row);
      }
      return json(200, { data: sub === 'bulk' ? out : out[0] });
    }
    if (method === 'DELETE') {
      const i = list.findIndex((r) => r.id === sub);
      if (i < 0) return json(404, { message: 'Not found', status: 404 });
      const [gone] = list.splice(i, 1);
      return json(200, { data: gone });
    }
    return json(405, { message: 'Method not allowed', status: 405 });
  });
  vi.stubGlobal('fetch', fn);
  return {
    fetch: fn,
    calls,
    rows: (id: string) => table(id),
    fail: (key: string, status: number, body: unknown) => failures.set(key, { status, body }),
  };
}

/** the admin's providers around a piece: data, the router (at `path`), the model, toasts */
export function renderAdmin(ui: ReactNode, { path = '/admin/' }: { path?: string } = {}) {
  registerGenericAdmin();
  // toasts of an earlier test are not this one's
  toast.dismiss();
  history.replaceState(null, '', path);
  function Providers({ children }: { children: ReactNode }) {
    const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } }));
    return (
      <QueryClientProvider client={client}>
        <Toaster />
        <RouterProvider>
          <ModelProvider fallback={<p>Loading model</p>}>{children}</ModelProvider>
        </RouterProvider>
      </QueryClientProvider>
    );
  }
  return render(ui, { wrapper: Providers });
}

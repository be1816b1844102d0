import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { ApiError } from '../../../runtime/client/index.js';
import { AUTH, http, useSubject } from './session.js';
import { useRbacWords } from './words.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** may the current visitor or subject call `method route`? 401 and 403 answer no */
export async function isAuthorized(method: Method, route: string): Promise<boolean> {
  try {
    await http.request('GET', `${AUTH}/is-authorized`, { query: { action: { method, route } } });
    return true;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return false;
    throw e;
  }
}

/**
 * Shows its children only when the server allows `method route` (spec §4): a skeleton while it
 * asks, the fallback ('Not authorized') when refused or on error. It waits for the session so
 * that an expired session is refreshed first.
 * @example <Authorized method="POST" route="/api/ecommerce/orders">…</Authorized>
 */
export function Authorized({ method, route, children, fallback }: { method: Method; route: string; children: ReactNode; fallback?: ReactNode }) {
  const { status, me } = useSubject();
  const w = useRbacWords();
  const query = useQuery({
    queryKey: ['rbac', 'is-authorized', me?.id ?? null, method, route],
    queryFn: () => isAuthorized(method, route),
    enabled: status !== 'loading',
    retry: false,
  });
  if (query.isPending) return <Skeleton className="h-24 w-full" />;
  if (query.data === true) return <>{children}</>;
  return <>{fallback ?? <p role="alert" className="py-8 text-center text-slate-600">{w('notAuthorized')}</p>}</>;
}

import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../runtime/client/index.js';
import { entityApi, type EntityInfo } from '../api.js';
import { plural } from '../labels.js';

/**
 * How many rows an entity has, on the dashboard: counted for every model listed (those without a title field
 * too: orders, requests, runs, sessions, payment intents), '…' while counting, and when the count is refused,
 * a word for why (no access) rather than a bare '—'.
 */
export function EntityCount({ entity }: { entity: EntityInfo }) {
  const q = useQuery({
    queryKey: ['dashboard', 'count', entity.id],
    queryFn: () => entityApi(entity).count({}),
    retry: false,
  });
  if (q.isPending) return <span className="tabular-nums text-slate-500" aria-label={`Counting ${plural(entity.title).toLowerCase()}`}>…</span>;
  if (q.error) {
    const status = q.error instanceof ApiError ? q.error.status : undefined;
    const denied = status === 401 || status === 403;
    const reason = denied ? 'This account may not count these rows' : `Not counted: ${(q.error as Error).message.split(' | ')[0]}`;
    return <span className="whitespace-nowrap text-xs text-slate-500" title={reason} data-count-error={status ?? ''}>{denied ? 'no access' : 'not counted'}<span className="sr-only">: {reason}</span></span>;
  }
  return <span className="tabular-nums text-slate-500" data-count={q.data}>{q.data}</span>;
}

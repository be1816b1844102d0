import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Play } from 'lucide-react';
import { toast } from 'sonner';
import { entityApi, http, type EntityInfo, type Row } from '../api.js';
import { useModel } from '../model.js';
import { GenericForm } from '../generic/form.js';
import { Button } from '../../ui/button.js';
import { Badge } from '../../ui/badge.js';
import { Skeleton } from '../../ui/skeleton.js';
import { cn } from '../../ui/cn.js';

/** DD.MM.YYYY HH:mm:ss (spec §9 date display, with seconds: runs are seconds apart) */
const when = (v: unknown) => {
  if (typeof v !== 'string') return '—';
  const d = new Date(v);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}.${p(d.getMonth() + 1)}.${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
};
const duration = (run: Row) => {
  if (typeof run.startedAt !== 'string' || typeof run.finishedAt !== 'string') return '—';
  const ms = new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime();
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
};
const STATUS_CLASS: Record<string, string> = {
  succeeded: 'border-green-200 bg-green-50 text-green-800',
  failed: 'border-red-200 bg-red-50 text-red-800',
  running: 'border-blue-200 bg-blue-50 text-blue-800',
};

/** the last runs of an agent: when, how it was started, how it ended, its result or error; and 'Run now' */
export function AgentRuns({ agent }: { agent: Row }) {
  const model = useModel();
  const runs = model.entities.find((e) => e.id === 'agent/run');
  const qc = useQueryClient();
  const q = useQuery({
    enabled: Boolean(runs),
    queryKey: ['agent', 'runs', 'history', agent.id],
    queryFn: () => entityApi(runs!).find({ filters: { and: [{ column: 'agentId', method: 'eq', value: agent.id }] }, orderBy: { and: [{ column: 'scheduledAt', method: 'desc' }] }, limit: 20 }),
  });
  const runNow = useMutation({
    mutationFn: () => http.request<Row>('POST', `/api/agent/agents/${agent.id}/run`, { data: {} }),
    onSuccess: async (run) => {
      if (run.status === 'failed') toast.error(`The run failed: ${String(run.error ?? '')}`);
      else toast.success('The run succeeded');
      await qc.invalidateQueries({ queryKey: ['agent'] });
    },
    onError: (e) => toast.error((e as Error).message),
  });
  if (!runs) return null;
  return (
    <section aria-label="Runs" className="rounded-lg border border-slate-200 bg-white">
      <header className="flex items-center gap-2 border-b border-slate-200 px-4 py-2">
        <h3 className="font-semibold">Runs</h3>
        <span className="text-xs text-slate-500">the last 20, newest first</span>
        <Button size="sm" variant="outline" className="ml-auto" disabled={runNow.isPending} onClick={() => runNow.mutate()}>
          <Play className="h-4 w-4" /> {runNow.isPending ? 'Running...' : 'Run now'}
        </Button>
      </header>
      {q.isPending ? (
        <div className="p-4" aria-busy="true" aria-label="Loading runs">
          <Skeleton className="mb-2 h-6 w-full" />
          <Skeleton className="h-6 w-full" />
        </div>
      ) : q.error ? (
        <p role="alert" className="p-4 text-sm text-red-700">{(q.error as Error).message}</p>
      ) : !q.data?.length ? (
        <p className="p-4 text-sm text-slate-600">No runs yet</p>
      ) : (
        <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs uppercase text-slate-500">
            <tr>
              <th className="px-4 py-2">Scheduled</th>
              <th className="px-4 py-2">Trigger</th>
              <th className="px-4 py-2">Status</th>
              <th className="px-4 py-2">Started</th>
              <th className="px-4 py-2">Ended</th>
              <th className="px-4 py-2">Took</th>
              <th className="px-4 py-2">Result or error</th>
            </tr>
          </thead>
          <tbody>
            {q.data.map((run) => (
              <tr key={run.id} className="border-t border-slate-100 align-top" data-status={String(run.status)}>
                <td className="whitespace-nowrap px-4 py-2">{when(run.scheduledAt)}</td>
                <td className="px-4 py-2">{String(run.trigger)}</td>
                <td className="px-4 py-2">
                  <Badge className={cn(STATUS_CLASS[String(run.status)])}>{String(run.status)}</Badge>
                </td>
                <td className="whitespace-nowrap px-4 py-2">{when(run.startedAt)}</td>
                <td className="whitespace-nowrap px-4 py-2">{when(run.finishedAt)}</td>
                <td className="whitespace-nowrap px-4 py-2">{duration(run)}</td>
                <td className="max-w-md px-4 py-2">
                  {run.error ? (
                    <span className="text-red-700">{String(run.error)}</span>
                  ) : run.result !== null && run.result !== undefined ? (
                    <code className="block max-h-24 overflow-auto whitespace-pre-wrap break-all text-xs">{JSON.stringify(run.result)}</code>
                  ) : (
                    '—'
                  )}
                  {run.instance ? <span className="mt-1 block text-xs text-slate-400">{String(run.instance)}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}

/** agent/agent admin-form: the generic form, then the agent's run history */
export function AgentForm(props: { entity: EntityInfo; row?: Row; prefill?: Record<string, unknown>; onSaved?: (row: Row) => void }) {
  return <GenericForm {...props} after={props.row && <AgentRuns agent={props.row} />} />;
}

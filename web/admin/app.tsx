import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { LayoutDashboard, LogOut, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { createQueryClient } from './api.js';
import { ModelProvider, useModel } from './model.js';
import { useSession, useSignOut } from './session.js';
import { lookup } from '../registry.js';
import { Button } from '../ui/button.js';
import { Skeleton } from '../ui/skeleton.js';
import { cn } from '../ui/cn.js';
import { useLiveInvalidation } from './live.js';

/** recharts is the dashboard's alone: loaded when the dashboard is shown */
const Dashboard = lazy(() => import('./dashboard/dashboard.js'));

/** /admin/<module>/<route> */
function usePath(): [string[], (to: string) => void] {
  const read = () => location.pathname.replace(/^\/admin\/?/, '').split('/').filter(Boolean);
  const [path, setPath] = useState(read);
  useEffect(() => {
    const onPop = () => setPath(read());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  return [path, (to: string) => { history.pushState(null, '', to); setPath(read()); }];
}

function Loading() {
  return (
    <div className="p-8" aria-busy="true" aria-label="Loading">
      <Skeleton className="mb-4 h-8 w-64" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

function Shell() {
  useLiveInvalidation();
  const model = useModel();
  const [[module, route], navigate] = usePath();
  const [navShown, setNavShown] = useState(true);
  const signOut = useSignOut();
  const entity = model.entities.find((e) => e.module === module && e.route === route);
  const byModule = useMemo(
    () => model.modules.map((m) => ({ module: m, entities: model.entities.filter((e) => e.module === m).sort((a, b) => a.name.localeCompare(b.name)) })),
    [model],
  );
  const Table = entity && lookup(entity.module, entity.name, 'admin-table');
  return (
    <div className="flex min-h-screen">
      {navShown && (
        <nav aria-label="Models" className="w-64 shrink-0 overflow-y-auto border-r border-slate-200 bg-white p-3 text-sm">
          <a
            href="/admin/"
            aria-current={!module ? 'page' : undefined}
            onClick={(ev) => { ev.preventDefault(); navigate('/admin/'); }}
            className={cn('mb-3 flex items-center gap-2 rounded px-2 py-1 hover:bg-slate-100', !module && 'bg-blue-50 font-medium text-blue-800')}
          >
            <LayoutDashboard className="h-4 w-4" aria-hidden /> Dashboard
          </a>
          {byModule.map(({ module: m, entities }) => (
            <div key={m} className="mb-3">
              <h2 className="px-2 py-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{m}</h2>
              <ul>
                {entities.map((e) => {
                  const href = `/admin/${e.module}/${e.route}`;
                  return (
                    <li key={e.id}>
                      <a
                        href={href}
                        aria-current={e === entity ? 'page' : undefined}
                        onClick={(ev) => { ev.preventDefault(); navigate(href); }}
                        className={cn('block rounded px-2 py-1 hover:bg-slate-100', e === entity && 'bg-blue-50 font-medium text-blue-800')}
                      >
                        {e.name}
                      </a>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>
      )}
      <main className="min-w-0 flex-1">
        <header className="flex items-center gap-2 border-b border-slate-200 bg-white px-4 py-2">
          <Button size="sm" variant="ghost" aria-expanded={navShown} onClick={() => setNavShown(!navShown)}>
            {navShown ? <PanelLeftClose className="h-4 w-4" /> : <PanelLeftOpen className="h-4 w-4" />} {navShown ? 'Hide' : 'Show'}
          </Button>
          <span className="font-semibold">Admin</span>
          <span className="ml-auto" />
          <Button size="sm" variant="outline" onClick={signOut}><LogOut className="h-4 w-4" /> Logout</Button>
        </header>
        <div className="mx-auto max-w-7xl p-4">
          {Table ? (
            <Table key={entity.id} entity={entity} />
          ) : module ? (
            <p className="p-8 text-slate-600">No model {module}/{route ?? ''}: choose one on the left.</p>
          ) : (
            <Suspense fallback={<Loading />}>
              <Dashboard />
            </Suspense>
          )}
        </div>
      </main>
    </div>
  );
}

/** spec §6: the admin needs an admin session; others see the sign-in form or 'Not authorized' */
function Gate({ children }: { children: ReactNode }) {
  const session = useSession();
  const qc = useQueryClient();
  const Login = lookup('rbac', 'subject', 'login-form');
  if (session.isPending) return <Loading />;
  if (session.error) return <p role="alert" className="p-8 text-red-700">{(session.error as Error).message}</p>;
  if (!session.data) {
    return (
      <div className="flex min-h-screen items-center justify-center p-4">
        {Login ? <Login title="Admin sign in" onSignedIn={() => qc.invalidateQueries()} /> : <p>Not authorized</p>}
      </div>
    );
  }
  // admins, and accounts whose roles were given a permission for the model (the model route decides)
  return <>{children}</>;
}

export function AdminApp() {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <Toaster richColors position="top-right" />
      <Gate>
        <ModelProvider fallback={<Loading />}>
          <Shell />
        </ModelProvider>
      </Gate>
    </QueryClientProvider>
  );
}

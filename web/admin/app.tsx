import { Component, lazy, Suspense, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ErrorInfo, type ReactNode } from 'react';
import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import * as RadixDialog from '@radix-ui/react-dialog';
import { Toaster } from 'sonner';
import { LogOut, Menu, PanelLeftClose, PanelLeftOpen, Search, UserRound, X } from 'lucide-react';
import { createQueryClient, entityApi, labelOf, onSessionEnded, type EntityInfo, type ModelInfo } from './api.js';
import { ModelProvider, useModel } from './model.js';
import { SessionEndContext, useSession, useSignOut } from './session.js';
import { adminLanguage, moduleTitle, ownerOf, plural, shortId } from './labels.js';
import { entityHref, Link, RouterProvider, useRouter } from './router.js';
import { ApiError } from '../../runtime/client/index.js';
import { displayDateTime } from './generic/cell.js';
import { FormDialog } from './generic/row.js';
import { EntityCount } from './dashboard/counts.js';
import { stateFromQuery, stateToQuery } from './generic/table-state.js';
import { lookup } from '../registry.js';
import { Button } from '../ui/button.js';
import { Dialog } from '../ui/dialog.js';
import { Input } from '../ui/input.js';
import { Skeleton } from '../ui/skeleton.js';
import { cn } from '../ui/cn.js';
import { useLiveInvalidation } from './live.js';

/** the analytics charts (recharts is theirs alone: loaded when the dashboard is shown) */
const Charts = lazy(() => import('./dashboard/dashboard.js'));

function Loading() {
  return (
    <div className="p-8" aria-busy="true" aria-label="Loading">
      <Skeleton className="mb-4 h-8 w-64" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/** spec §8: the error fallback, 'Oh no! Something went wrong...', with the message and Reload */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error?: Error }> {
  state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  componentDidUpdate(prev: { resetKey?: string }) {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: undefined });
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="mx-auto flex max-w-lg flex-col items-center gap-3 p-8 text-center">
        <h1 className="text-xl font-semibold">Oh no! Something went wrong...</h1>
        <p className="break-words text-sm text-slate-600">{this.state.error.message}</p>
        <Button variant="primary" onClick={() => location.reload()}>Reload</Button>
      </div>
    );
  }
}

const LARGE = '(min-width: 1024px)';
/** whether the screen is at least the large breakpoint (the sidebar is a column there, a drawer below) */
function useLarge() {
  return useSyncExternalStore(
    (cb) => {
      const m = matchMedia(LARGE);
      m.addEventListener('change', cb);
      return () => m.removeEventListener('change', cb);
    },
    () => matchMedia(LARGE).matches,
    () => true,
  );
}

/** the tab's title: what is shown, then 'Admin' */
function useDocumentTitle(...parts: (string | undefined)[]) {
  const title = [...parts.filter(Boolean), 'Admin'].join(' · ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}

interface NavGroup {
  module: string;
  title: string;
  items: { entity: EntityInfo; children: EntityInfo[] }[];
}

/** the models by module, sorted by title; relation tables under the entity they belong to */
export function navGroups(model: ModelInfo, filter: string, showRelations: boolean): NavGroup[] {
  const term = filter.trim().toLowerCase();
  const matches = (e: EntityInfo) => !term || [e.title, e.name, e.module, moduleTitle(e.module)].some((s) => s.toLowerCase().includes(term));
  const byTitle = (a: EntityInfo, b: EntityInfo) => a.title.localeCompare(b.title) || a.name.localeCompare(b.name);
  return [...model.modules]
    .sort((a, b) => moduleTitle(a).localeCompare(moduleTitle(b)))
    .map((module) => {
      const own = model.entities.filter((e) => e.module === module);
      const relations = own.filter((e) => e.relation);
      const items = own
        .filter((e) => !e.relation)
        .sort(byTitle)
        .map((entity) => ({
          entity,
          children: relations.filter((r) => ownerOf(model, r)?.id === entity.id && (showRelations ? matches(r) || matches(entity) : !!term && matches(r))).sort(byTitle),
        }))
        .filter((i) => matches(i.entity) || i.children.length);
      // relations whose owner lives in another module
      const orphans = relations.filter((r) => ownerOf(model, r)?.module !== module && (showRelations ? matches(r) : !!term && matches(r))).sort(byTitle);
      for (const r of orphans) items.push({ entity: r, children: [] });
      return { module, title: moduleTitle(module), items };
    })
    .filter((g) => g.items.length);
}

function ModelNav({ current, onNavigate }: { current?: EntityInfo; onNavigate?: () => void }) {
  const model = useModel();
  const [filter, setFilter] = useState('');
  const [showRelations, setShowRelations] = useState(false);
  const groups = useMemo(() => navGroups(model, filter, showRelations), [model, filter, showRelations]);
  const repeated = useMemo(() => {
    const count = new Map<string, number>();
    for (const e of model.entities) count.set(e.title, (count.get(e.title) ?? 0) + 1);
    return count;
  }, [model]);
  const item = (e: EntityInfo, nested = false) => (
    <li key={e.id}>
      <Link
        href={entityHref(e)}
        aria-current={e.id === current?.id ? 'page' : undefined}
        onClick={() => onNavigate?.()}
        className={cn('block truncate rounded px-2 py-1.5 hover:bg-slate-100', nested && 'pl-6 text-slate-600', e.id === current?.id && 'bg-blue-50 font-medium text-blue-800')}
        title={`${e.title} (${moduleTitle(e.module)})`}
      >
        {e.title}
        {(repeated.get(e.title) ?? 0) > 1 && <span className="sr-only"> ({moduleTitle(e.module)})</span>}
      </Link>
    </li>
  );
  return (
    <div className="flex h-full flex-col">
      <div className="flex flex-col gap-2 border-b border-slate-200 p-3">
        <label className="relative">
          <span className="sr-only">Filter models</span>
          <Search aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 h-4 w-4 text-slate-400" />
          <Input type="search" placeholder="Filter models" value={filter} className="h-9 pl-8" onChange={(e) => setFilter(e.target.value)} />
        </label>
        <label className="flex items-center gap-2 text-xs text-slate-600">
          <input type="checkbox" className="h-4 w-4" checked={showRelations} onChange={(e) => setShowRelations(e.target.checked)} />
          Show relation tables
        </label>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-3 text-sm">
        {!groups.length && <p className="px-2 text-slate-500">No found items</p>}
        {groups.map((g) => (
          <div key={g.module} className="mb-3">
            <h2 className="px-2 py-1 text-xs font-semibold text-slate-500">{g.title}</h2>
            <ul>
              {g.items.map(({ entity, children }) => (
                <li key={entity.id}>
                  <ul>
                    {item(entity)}
                    {children.map((c) => item(c, true))}
                  </ul>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </div>
  );
}

/** the landing page: how many rows each model has, and what changed last */
function Dashboard() {
  const model = useModel();
  useDocumentTitle('Dashboard');
  const language = adminLanguage(model);
  // rows people edit: those with a title of some kind (sessions and nonces are the machine's)
  const entities = useMemo(() => model.entities.filter((e) => !e.relation && e.fields.some((f) => ['adminTitle', 'title', 'name', 'email'].includes(f.name) && f.readable !== false)), [model]);
  const pages = useQuery({
    queryKey: ['dashboard'],
    queryFn: async () => {
      const answers = await Promise.all(
        entities.map((e) =>
          entityApi(e)
            .page({ limit: 5, orderBy: { and: [{ column: 'updatedAt', method: 'desc' }] } })
            .then((p) => ({ entity: e, ...p }))
            .catch(() => ({ entity: e, rows: [], total: undefined as number | undefined })),
        ),
      );
      return answers;
    },
  });
  const recent = (pages.data ?? [])
    .flatMap((p) => p.rows.map((row) => ({ entity: p.entity, row })))
    .sort((a, b) => String(b.row.updatedAt).localeCompare(String(a.row.updatedAt)))
    .slice(0, 12);
  const groups = navGroups(model, '', false);
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-xl font-semibold">Dashboard</h1>
      <Suspense fallback={<Skeleton className="h-64 w-full" />}>
        <Charts />
      </Suspense>
      <section aria-labelledby="recent-h" className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <h2 id="recent-h" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">Recent changes</h2>
        {pages.isPending ? (
          <div className="p-4"><Skeleton className="h-24 w-full" /></div>
        ) : !recent.length ? (
          <p className="p-4 text-sm text-slate-500">No found items</p>
        ) : (
          <ul>
            {recent.map(({ entity, row }) => (
              <li key={`${entity.id}:${row.id}`} className="flex flex-wrap items-baseline gap-x-3 border-t border-slate-100 px-4 py-2 text-sm first:border-t-0">
                <Link href={entityHref(entity, row.id)} className="min-w-0 truncate font-medium text-blue-700 hover:underline">{labelOf(row, language) || shortId(row.id)}</Link>
                <span className="text-slate-500">{entity.title} · {moduleTitle(entity.module)}</span>
                <span className="ml-auto whitespace-nowrap tabular-nums text-xs text-slate-500">{displayDateTime(String(row.updatedAt))}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {groups.map((g) => (
          <section key={g.module} aria-label={g.title} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <h2 className="mb-2 text-sm font-semibold text-slate-600">{g.title}</h2>
            <ul className="grid gap-1 text-sm">
              {g.items.map(({ entity }) => (
                <li key={entity.id} className="flex items-baseline justify-between gap-2">
                  <Link href={entityHref(entity)} className="truncate text-blue-700 hover:underline">{plural(entity.title)}</Link>
                  <EntityCount entity={entity} />
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}

function NotFound() {
  useDocumentTitle('Not found');
  return (
    <div className="flex flex-col items-start gap-3 p-4">
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="text-slate-600">No model or page has this address.</p>
      <Link href="/admin/" className="text-blue-700 hover:underline">Go to the dashboard</Link>
    </div>
  );
}

/** a row opened by its address (/admin/<module>/<route>/<id>): its edit dialog over the list */
function RecordDialog({ entity, id, onClose }: { entity: EntityInfo; id: string; onClose: () => void }) {
  const model = useModel();
  const row = useQuery({ queryKey: [entity.module, entity.route, 'row', id], queryFn: () => entityApi(entity).findById(id), retry: false });
  useDocumentTitle(row.data ? labelOf(row.data, adminLanguage(model)) : undefined, entity.title);
  // no such row (404, or an id that cannot be one: 400) is 'Not found'; any other failure (a server fault, the
  // network) says what happened and offers Retry: the row may well exist
  const error = row.error;
  const missing = !!error && error instanceof ApiError && (error.status === 404 || error.status === 400);
  const failed = error && !missing ? { message: error.message.split(' | ')[0]!, retry: () => void row.refetch(), retrying: row.isFetching } : undefined;
  return <FormDialog key={id} entity={entity} row={row.data} open onClose={onClose} loading={row.isPending} missing={missing} failed={failed} />;
}

/** an entity's list (its state in the address) and the row the address opens */
function EntityPage({ entity, id }: { entity: EntityInfo; id?: string }) {
  const { location, navigate, setQuery, close } = useRouter();
  const Table = lookup(entity.module, entity.name, 'admin-table');
  const query = location.query.toString();
  const state = useMemo(() => stateFromQuery(location.query), [query]); // eslint-disable-line react-hooks/exhaustive-deps
  useDocumentTitle(id ? undefined : plural(entity.title));
  return (
    <>
      {Table ? (
        <Table
          key={entity.id}
          entity={entity}
          state={state}
          onStateChange={(s: ReturnType<typeof stateFromQuery>) => setQuery(stateToQuery(s))}
          onOpen={(row: { id: string }) => navigate(entityHref(entity, row.id, query), { state: { opened: true } })}
          onCreated={(row: { id: string }) => navigate(entityHref(entity, row.id, query), { state: { opened: true } })}
        />
      ) : null}
      {id && <RecordDialog entity={entity} id={id} onClose={() => close(entityHref(entity, undefined, query))} />}
    </>
  );
}

function SignedInAs() {
  const session = useSession();
  const me = session.data;
  if (!me) return null;
  const email = me.identities.find((i) => i.email)?.email;
  const who = email ?? (me.identities[0]?.provider ? `${me.identities[0].provider} account` : 'Signed in');
  const roles = me.roles.map((r) => r.title).join(', ');
  return (
    <span className="flex min-w-0 items-center gap-1.5 text-sm text-slate-600" title={roles ? `${who} (${roles})` : who}>
      <UserRound aria-hidden className="h-4 w-4 shrink-0" />
      <span className="sr-only">Signed in as</span>
      <span className="max-w-[14rem] truncate max-sm:max-w-[8rem]">{who}</span>
    </span>
  );
}

function Shell() {
  // live revalidation: a change made anywhere invalidates the matching queries here (plugins/broadcast)
  useLiveInvalidation();
  const model = useModel();
  const { location } = useRouter();
  const large = useLarge();
  const [navShown, setNavShown] = useState(true);
  const [drawer, setDrawer] = useState(false);
  const signOut = useSignOut();
  const [module, route, id, ...extra] = location.path;
  const entity = module && route ? model.entities.find((e) => e.module === module && e.route === route) : undefined;
  const known = !module || (entity && !extra.length);
  // the drawer closes on navigation
  useEffect(() => setDrawer(false), [location.href]);
  /** a model was chosen in the drawer: once it has closed, the focus goes to the page shown, not back to the menu button */
  const chosen = useRef(false);
  const nav = (
    <ModelNav
      current={entity}
      onNavigate={() => {
        if (!large) chosen.current = true;
        setDrawer(false);
      }}
    />
  );
  const content = useRef<HTMLDivElement>(null);
  return (
    // the drawer's root holds both its trigger (the header's menu button) and its content: closed without a
    // choice (Escape, its close button, a click outside), Radix gives the focus back to that button
    <RadixDialog.Root open={!large && drawer} onOpenChange={setDrawer}>
      <div className="flex min-h-screen">
        {/* the first thing Tab reaches: past the list of models and the header, to the page's own content */}
        <a
          href="#admin-content"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[60] focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-blue-800 focus:shadow-lg focus:outline-none focus:ring-2 focus:ring-blue-600"
          onClick={(e) => {
            e.preventDefault();
            content.current?.focus();
          }}
        >
          Skip to content
        </a>
        {large && navShown && (
          <nav aria-label="Models" className="sticky top-0 h-screen w-64 shrink-0 border-r border-slate-200 bg-white">{nav}</nav>
        )}
        {!large && (
          <RadixDialog.Portal>
            <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
            <RadixDialog.Content
              aria-describedby={undefined}
              className="fixed inset-y-0 left-0 z-50 flex w-[min(20rem,85vw)] flex-col bg-white shadow-xl focus:outline-none"
              onCloseAutoFocus={(e) => {
                if (!chosen.current) return; // Radix focuses the trigger
                chosen.current = false;
                // a model was chosen: the page's content (its list's heading and search next), where Skip to content goes
                e.preventDefault();
                content.current?.focus({ preventScroll: true });
              }}
            >
              <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
                <RadixDialog.Title className="font-semibold">Models</RadixDialog.Title>
                <RadixDialog.Close className="rounded p-2 text-slate-500 hover:bg-slate-100" aria-label="Close menu"><X className="h-5 w-5" /></RadixDialog.Close>
              </div>
              <nav aria-label="Models" className="min-h-0 flex-1">{nav}</nav>
            </RadixDialog.Content>
          </RadixDialog.Portal>
        )}
        <main className="min-w-0 flex-1">
          <header className="sticky top-0 z-30 flex items-center gap-2 border-b border-slate-200 bg-white px-2 py-2 sm:px-4">
            {large ? (
              <Button size="sm" variant="ghost" aria-expanded={navShown} onClick={() => setNavShown(!navShown)}>
                {navShown ? <PanelLeftClose className="h-4 w-4" /> : <PanelLeftOpen className="h-4 w-4" />} {navShown ? 'Hide' : 'Show'}
              </Button>
            ) : (
              <RadixDialog.Trigger asChild>
                <Button size="sm" variant="ghost" aria-label="Open menu">
                  <Menu className="h-5 w-5" />
                </Button>
              </RadixDialog.Trigger>
            )}
            <Link href="/admin/" className="font-semibold">Admin</Link>
            {entity && <span className="truncate text-sm text-slate-500 max-sm:hidden">/ {moduleTitle(entity.module)}</span>}
            <span className="ml-auto" />
            <SignedInAs />
            <Button size="sm" variant="outline" onClick={signOut} aria-label="Logout"><LogOut className="h-4 w-4" /> <span className="max-sm:sr-only">Logout</span></Button>
          </header>
          <div id="admin-content" ref={content} tabIndex={-1} className="mx-auto max-w-7xl p-2 focus:outline-none sm:p-4">
            <ErrorBoundary resetKey={location.path.slice(0, 2).join('/')}>
              {!module ? <Dashboard /> : !known || !entity ? <NotFound /> : <EntityPage entity={entity} id={id} />}
            </ErrorBoundary>
          </div>
        </main>
      </div>
    </RadixDialog.Root>
  );
}

/**
 * spec §6: the admin needs an admin session; others see the sign-in form or 'Not authorized'. A session that ends
 * while signed in (signed out elsewhere, the password changed, the refresh token expired: a request refused that
 * no refresh brings back) asks to sign in again over the page, which stays as it was, so that a form being
 * edited keeps its changes and can be saved once signed in. Signing out here is not a session ending.
 */
function Gate({ children }: { children: ReactNode }) {
  const session = useSession();
  const qc = useQueryClient();
  const Login = lookup('rbac', 'subject', 'login-form');
  const box = useRef<HTMLDivElement>(null);
  const [ended, setEnded] = useState(false);
  /** signed in since the page loaded (or the last sign-out) */
  const wasSignedIn = useRef(false);
  /** signing out on purpose: the refusals that follow are not a session ending */
  const quiet = useRef(false);
  if (session.data) wasSignedIn.current = true;
  useEffect(() => {
    if (session.data) quiet.current = false;
  }, [session.data]);
  useEffect(() => onSessionEnded(() => wasSignedIn.current && !quiet.current && setEnded(true)), []);
  const end = useMemo(() => ({
    signedOut: () => {
      quiet.current = true;
      wasSignedIn.current = false;
      setEnded(false);
    },
  }), []);
  const resuming = ended && wasSignedIn.current;
  const signingIn = !session.isPending && !session.error && !session.data && !resuming;
  useDocumentTitle(signingIn ? 'Sign in' : undefined);
  // the sign-in form starts in its email field
  useEffect(() => {
    if (signingIn) box.current?.querySelector<HTMLInputElement>('input[type="email"], input')?.focus();
  }, [signingIn]);
  if (!resuming) {
    if (session.isPending) return <Loading />;
    if (session.error) return <p role="alert" className="p-8 text-red-700">{(session.error as Error).message}</p>;
    if (!session.data) {
      return (
        <div ref={box} className="flex min-h-screen items-center justify-center p-4">
          {Login ? <Login title="Admin sign in" onSignedIn={() => qc.invalidateQueries()} /> : <p>Not authorized</p>}
        </div>
      );
    }
  }
  // admins, and accounts whose roles were given a permission for the model (the model route decides)
  return (
    <SessionEndContext.Provider value={end}>
      {children}
      {ended && (
        <Dialog
          open
          role="alertdialog"
          onOpenChange={() => undefined}
          title="Your session ended"
          description="Sign in again to go on. What you were editing is kept: save it once you are signed in."
          className="max-w-md"
        >
          {Login ? (
            <Login
              title="Sign in again"
              onSignedIn={async () => {
                setEnded(false);
                await qc.invalidateQueries({ queryKey: ['rbac', 'me'] });
              }}
            />
          ) : (
            <p>Not authorized</p>
          )}
        </Dialog>
      )}
    </SessionEndContext.Provider>
  );
}

export function AdminApp() {
  const [client] = useState(createQueryClient);
  return (
    <ErrorBoundary>
      <QueryClientProvider client={client}>
        {/* clickable over a modal dialog too (a modal makes the rest of the page inert to the pointer) */}
        <Toaster richColors position="top-right" closeButton style={{ pointerEvents: 'auto' }} />
        <RouterProvider>
          <Gate>
            <ModelProvider fallback={<Loading />}>
              <Shell />
            </ModelProvider>
          </Gate>
        </RouterProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}

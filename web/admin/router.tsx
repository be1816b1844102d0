import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { Button } from '../ui/button.js';
import { Dialog } from '../ui/dialog.js';

/**
 * The admin's address is its state: /admin/<module>/<route>[/<id>]?q=…&page=…&sort=… — the list's page, sort,
 * search and filters and the open record survive a reload, and Back goes where it went before. A form with
 * unsaved changes asks before anything takes it away (a link, Back, closing its dialog).
 */

export interface Location {
  /** the path after /admin/, split */
  path: string[];
  query: URLSearchParams;
  /** pathname + search */
  href: string;
}

interface Confirm {
  title: string;
  description?: string;
  confirm: string;
  cancel?: string;
  destructive?: boolean;
}

interface RouterValue {
  location: Location;
  navigate: (to: string, opts?: { replace?: boolean; state?: Record<string, unknown> }) => void;
  /** closes what was opened by navigate(…, { state: { opened: true } }): Back when it was, else a replace */
  close: (to: string) => void;
  /** replaces the address's query at once, without asking (a list's page, sort, search, filters) */
  setQuery: (query: string) => void;
  /** registers a guard: while it returns true, leaving asks first */
  guard: (dirty: () => boolean) => () => void;
  confirm: (c: Confirm) => Promise<boolean>;
  /** asks when a guard is dirty; true when nothing is dirty or the editor agreed to discard */
  confirmLeave: () => Promise<boolean>;
}

const RouterContext = createContext<RouterValue | undefined>(undefined);

const read = (): Location => {
  const path = location.pathname.replace(/^\/admin\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  return { path, query: new URLSearchParams(location.search), href: location.pathname + location.search };
};

export const DISCARD: Confirm = {
  title: 'Discard unsaved changes?',
  description: 'The changes in this form have not been saved.',
  confirm: 'Discard',
  cancel: 'Keep editing',
  destructive: true,
};

export function RouterProvider({ children }: { children: ReactNode }) {
  const [loc, setLoc] = useState(read);
  const guards = useRef(new Set<() => boolean>());
  const [asking, setAsking] = useState<(Confirm & { resolve: (ok: boolean) => void }) | undefined>();
  const current = useRef(loc);
  current.current = loc;
  const skipPop = useRef(false);

  const confirm = useCallback((c: Confirm) => new Promise<boolean>((resolve) => setAsking({ ...c, resolve })), []);
  const dirty = () => [...guards.current].some((g) => g());
  const confirmLeave = useCallback(async () => {
    if (!dirty()) return true;
    const ok = await confirm(DISCARD);
    if (ok) guards.current.clear();
    return ok;
  }, [confirm]);

  const go = (to: string, opts: { replace?: boolean; state?: Record<string, unknown> } = {}) => {
    if (to === current.current.href && !opts.replace) return;
    if (opts.replace) history.replaceState(opts.state ?? null, '', to);
    else history.pushState(opts.state ?? null, '', to);
    setLoc(read());
  };

  useEffect(() => {
    const onPop = () => {
      if (skipPop.current) {
        skipPop.current = false;
        setLoc(read());
        return;
      }
      if (!dirty()) return setLoc(read());
      // Back with unsaved changes: stay, and ask
      const target = location.pathname + location.search;
      history.pushState(null, '', current.current.href);
      void confirm(DISCARD).then((ok) => {
        if (!ok) return;
        guards.current.clear();
        history.replaceState(null, '', target);
        setLoc(read());
      });
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, [confirm]);

  const value = useMemo<RouterValue>(
    () => ({
      location: loc,
      navigate: (to, opts) => {
        void confirmLeave().then((ok) => ok && go(to, opts));
      },
      close: (to) => {
        if ((history.state as { opened?: boolean } | null)?.opened) {
          skipPop.current = true;
          history.back();
        } else go(to, { replace: true });
      },
      setQuery: (query) => {
        const to = location.pathname + (query ? `?${query}` : '');
        if (to !== location.pathname + location.search) history.replaceState(history.state, '', to);
        setLoc(read());
      },
      guard: (g) => {
        guards.current.add(g);
        return () => guards.current.delete(g);
      },
      confirm,
      confirmLeave,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [loc, confirm, confirmLeave],
  );

  const answer = (ok: boolean) => {
    asking?.resolve(ok);
    setAsking(undefined);
  };
  return (
    <RouterContext.Provider value={value}>
      {children}
      <Dialog open={!!asking} onOpenChange={(open) => !open && answer(false)} title={asking?.title ?? ''} description={asking?.description} className="max-w-md" role="alertdialog">
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => answer(false)}>{asking?.cancel ?? 'Cancel'}</Button>
          <Button variant={asking?.destructive ? 'destructive' : 'primary'} onClick={() => answer(true)}>{asking?.confirm}</Button>
        </div>
      </Dialog>
    </RouterContext.Provider>
  );
}

/** the router; outside a RouterProvider (component tests of one piece) a memory router that never leaves */
export function useRouter(): RouterValue {
  const r = useContext(RouterContext);
  if (r) return r;
  return FALLBACK;
}

const FALLBACK: RouterValue = {
  location: { path: [], query: new URLSearchParams(), href: '/admin/' },
  navigate: (to) => {
    history.pushState(null, '', to);
  },
  close: () => undefined,
  setQuery: () => undefined,
  guard: () => () => undefined,
  confirm: async () => true,
  confirmLeave: async () => true,
};

/** keeps the editor's work: while dirty() is true, links, Back, closing and leaving the page ask first */
export function useLeaveGuard(dirty: () => boolean) {
  const { guard } = useRouter();
  const ref = useRef(dirty);
  ref.current = dirty;
  useEffect(() => guard(() => ref.current()), [guard]);
  // leaving the page itself (reload, closing the tab, an address typed): the browser's own question
  useEffect(() => {
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (!ref.current()) return;
      e.preventDefault();
      e.returnValue = '';
    };
    addEventListener('beforeunload', beforeUnload);
    return () => removeEventListener('beforeunload', beforeUnload);
  }, []);
}

/** a row's own address, /admin/<module>/<route>/<id>: what opens a record's dialog */
const ROW_ADDRESS = /^\/admin\/[^/?#]+\/[^/?#]+\/[^/?#]+/;

/**
 * an admin link: a real href (new tab, copy link), navigated in place on a plain click. A link to a row (a
 * reference, a relation's far row, a recent change) opens it as the table's own Edit does: closing it goes back
 * to where the editor was (the record whose relation they followed), not to the far entity's list.
 */
export function Link({ href, onClick, children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children: ReactNode }) {
  const { navigate } = useRouter();
  return (
    <a
      href={href}
      {...rest}
      onClick={(e: MouseEvent<HTMLAnchorElement>) => {
        onClick?.(e);
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href, ROW_ADDRESS.test(href) ? { state: { opened: true } } : undefined);
      }}
    >
      {children}
    </a>
  );
}

/** the address of an entity's list, or of one of its rows */
export const entityHref = (e: { module: string; route: string }, id?: string, query?: string) =>
  `/admin/${e.module}/${e.route}${id ? `/${encodeURIComponent(id)}` : ''}${query ? `?${query}` : ''}`;

import { Component, useEffect, useState, type ReactNode } from 'react';
import { RotateCw } from 'lucide-react';
import { cn } from '../ui/cn.js';
import { useWords } from './words.js';

/** what the storefront asks the server before its one automatic reload (spec §7, §8) */
export const REVALIDATE_URL = '/api/revalidation/revalidate?path=/&type=layout';
/** the path whose failed render was already retried in this tab (session storage) */
export const RECOVERY_KEY = 'storefront.recovery';

/** the error fallback of one widget (spec §8), in English; other languages: the 'storefront.widgetError' word */
export const WIDGET_ERROR = 'Oh no! Something went wrong...';
/** the message of the global error screen when the server could not draw the page; never the server's own text */
export const SERVER_ERROR = 'Something went wrong';

/** the widget fallback's text in the page's language */
function WidgetError() {
  const w = useWords();
  return <div role="alert" className="mx-auto max-w-7xl px-4 py-6 text-red-700">{w('widgetError')}</div>;
}

/** the browser side effects of error recovery, in one place so that tests can watch them */
export const recoveryBrowser = {
  path: () => window.location.pathname + window.location.search,
  storage: (): Storage | undefined => {
    try {
      return window.sessionStorage;
    } catch {
      return undefined;
    }
  },
  reload: () => window.location.reload(),
  revalidate: () => fetch(REVALIDATE_URL, { credentials: 'include' }).then(() => undefined),
};

/**
 * A failed render of this path gets one automatic retry per tab: the first failure marks the path, asks
 * the server to revalidate, then reloads; a second failure finds the mark and shows the screen. Without
 * session storage there is no mark, so nothing reloads by itself (it could not stop).
 */
export function shouldRecover(): boolean {
  const storage = recoveryBrowser.storage();
  const path = recoveryBrowser.path();
  if (!storage) return false;
  try {
    if (storage.getItem(RECOVERY_KEY) === path) return false;
    storage.setItem(RECOVERY_KEY, path);
    return true;
  } catch {
    return false;
  }
}

export async function recover(): Promise<void> {
  await recoveryBrowser.revalidate().catch(() => undefined);
  recoveryBrowser.reload();
}

/** a page that rendered: a later failure of it may be retried again */
export function recovered() {
  try {
    const storage = recoveryBrowser.storage();
    if (storage?.getItem(RECOVERY_KEY) === recoveryBrowser.path()) storage.removeItem(RECOVERY_KEY);
  } catch {
    /* nothing to clear */
  }
}

/** clears the retry mark once the page has rendered in the browser */
export function RecoveryDone() {
  useEffect(recovered, []);
  return null;
}

type Phase = 'idle' | 'reloading' | 'shown';

/**
 * The global error screen (spec §2, §8): the message and a 'Reload' button. With `recover` (the server could
 * not draw the page), the first time it asks the server to revalidate and reloads once; it never loops, and a
 * second failure shows the screen. `data-recovery` says which: idle (server markup), reloading, shown.
 * Before hydration, 'Reload' is a plain GET of the same address.
 */
export function GlobalError({ message, recover: retry = false, className }: { message?: string; recover?: boolean; className?: string }) {
  const w = useWords();
  const [phase, setPhase] = useState<Phase>('idle');
  useEffect(() => {
    if (retry && shouldRecover()) {
      setPhase('reloading');
      void recover();
    } else setPhase('shown');
  }, [retry]);
  return (
    <section role="alert" data-recovery={phase} className={cn('mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-4 py-16 text-center', className)}>
      <p className="text-2xl font-semibold tracking-tight text-slate-900">{message ?? w('serverError')}</p>
      {phase === 'reloading' ? (
        <p className="flex items-center gap-2 text-slate-600" aria-live="polite">
          <RotateCw className="h-4 w-4 animate-spin" aria-hidden />
          {w('reloading')}
        </p>
      ) : (
        <form method="get" onSubmit={(e) => {
          e.preventDefault();
          recoveryBrowser.reload();
        }}>
          <button type="submit" className="inline-flex h-10 items-center justify-center gap-2 rounded-md bg-slate-900 px-4 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600">
            <RotateCw className="h-4 w-4" aria-hidden />
            {w('reload')}
          </button>
        </form>
      )}
    </section>
  );
}

/** one widget's boundary: a widget that throws is replaced by the fallback text, the page stays */
export class WidgetBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    console.error(error);
  }
  render() {
    return this.state.failed ? <WidgetError /> : this.props.children;
  }
}

/** the page's boundary: a render that fails outside any widget shows the global error screen with its message */
export class PageBoundary extends Component<{ children: ReactNode }, { error?: unknown }> {
  state: { error?: unknown } = {};
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  componentDidCatch(error: unknown) {
    console.error(error);
  }
  render() {
    if (this.state.error === undefined) return this.props.children;
    const message = this.state.error instanceof Error && this.state.error.message ? this.state.error.message : undefined;
    return <GlobalError message={message} className="min-h-screen justify-center" />;
  }
}

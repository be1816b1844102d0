import { useEffect, useId, useRef, useState } from 'react';
import { ChevronDown, LogIn, LogOut, Settings, ShieldCheck } from 'lucide-react';
import { Button } from '../../../web/ui/button.js';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { cn } from '../../../web/ui/cn.js';
import { useHref, type Expanded } from '../../../web/storefront/context.js';
import { ROUTES, subjectName, useSubject } from './session.js';
import { ButtonLink, useRoleTitle } from './ui.js';
import { useRbacWords } from './words.js';

const ITEM = 'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600';

/**
 * 'rbac/widget/account-menu': for a subject, a button with its email (or wallet) opening a panel
 * with its roles, Settings and Logout; for a visitor, a Login button; a skeleton until known.
 * The panel is a disclosure: Tab moves through it, Escape or a click outside closes it.
 */
export function AccountMenu({ row }: { row: Expanded }) {
  const { status, me, signOut } = useSubject();
  const href = useHref();
  const w = useRbacWords();
  const roleTitle = useRoleTitle();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onFocus = (e: FocusEvent) => {
      if (e.target instanceof Node && !root.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('focusin', onFocus);
    };
  }, [open]);

  // open, it stacks above a sticky header that follows it in the page
  const className = cn('relative flex items-center', open && 'z-[60]', row.className as string | undefined);
  if (status === 'loading') return <div className={className}><Skeleton className="h-10 w-32 rounded-md" /></div>;
  if (!me) {
    return (
      <div className={className}>
        <ButtonLink to={ROUTES.selectMethod} variant="primary">
          <LogIn className="h-4 w-4" aria-hidden />
          {w('login')}
        </ButtonLink>
      </div>
    );
  }

  const name = subjectName(me);
  const leave = async () => {
    setLeaving(true);
    await signOut();
  };

  return (
    <div
      ref={root}
      className={className}
      // Escape closes this panel only: it goes no further (the phone menu the panel may sit in stays open)
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        e.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }}
    >
      <Button ref={button} variant="outline" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)} className="max-w-[16rem]">
        <span aria-hidden className="inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-blue-600/10 text-xs font-semibold text-blue-700">
          {name.charAt(0).toUpperCase()}
        </span>
        <span className="truncate" title={name}>{name}</span>
        <ChevronDown className={cn('h-4 w-4 shrink-0 transition-transform', open && 'rotate-180')} aria-hidden />
      </Button>
      {open && (
        <div id={panelId} className="absolute right-0 top-full z-50 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
          <div className="px-3 py-2">
            <p className="text-xs text-slate-500">{w('signedInAs')}</p>
            <p className="truncate text-sm font-medium text-slate-900" title={name}>{name}</p>
          </div>
          {me.roles.length > 0 && (
            <ul aria-label={w('roles')} className="flex flex-wrap gap-1.5 px-3 pb-2">
              {me.roles.map((r) => (
                <li key={r.id} className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                  <ShieldCheck className="h-3 w-3" aria-hidden />
                  {roleTitle(r)}
                </li>
              ))}
            </ul>
          )}
          <div className="my-1 h-px bg-slate-200" />
          <a href={href(ROUTES.settings)} className={ITEM}>
            <Settings className="h-4 w-4" aria-hidden />
            {w('settings')}
          </a>
          <button type="button" className={ITEM} onClick={leave} disabled={leaving}>
            <LogOut className="h-4 w-4" aria-hidden />
            {leaving ? w('loggingOut') : w('logout')}
          </button>
        </div>
      )}
    </div>
  );
}

import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck, UserRound } from 'lucide-react';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { cn } from '../../../web/ui/cn.js';
import { useHref, useT, type Expanded } from '../../../web/storefront/context.js';
import { ME_KEY, ROUTES, browser, logout, subjectName, useSubject, type Me } from './session.js';
import { ButtonLink, Link } from './ui.js';

/** 'rbac/widget/default': the title only */
export function DefaultWidget({ row }: { row: Expanded }) {
  const t = useT();
  const title = t(row.title);
  if (!title) return null;
  return (
    <div className={cn('mx-auto max-w-7xl px-4 py-6', row.className as string | undefined)}>
      <h2 className="text-2xl font-semibold tracking-tight">{title}</h2>
    </div>
  );
}

/** 'rbac/widget/logout': nothing to see; ends the session on mount and goes home */
export function Logout({ row }: { row: Expanded }) {
  const t = useT();
  const href = useHref();
  const qc = useQueryClient();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout().then(() => {
      void qc.cancelQueries({ queryKey: ME_KEY });
      qc.setQueryData(ME_KEY, null);
      browser.go(href('/'));
    });
  }, [href, qc]);
  return (
    <div hidden data-rbac-logout>
      {t(row.title) || 'Signing out'}
    </div>
  );
}

function Avatar({ name, className }: { name: string; className?: string }) {
  const letter = name.trim().charAt(0).toUpperCase();
  return (
    <span aria-hidden className={cn('inline-flex shrink-0 items-center justify-center rounded-full bg-blue-600/10 font-semibold text-blue-700', className)}>
      {letter || <UserRound className="h-1/2 w-1/2" />}
    </span>
  );
}

export function SubjectCard({ me }: { me: Me }) {
  const name = subjectName(me);
  return (
    <article className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:flex-row sm:items-center">
      <Avatar name={name} className="h-16 w-16 text-2xl" />
      <div className="min-w-0 flex-1 space-y-1">
        <h2 className="truncate text-lg font-semibold text-slate-900" title={name}>{name}</h2>
        <p className="truncate text-sm text-slate-500">@{me.slug}</p>
        {me.roles.length > 0 && (
          <ul className="flex flex-wrap gap-1.5 pt-1" aria-label="Roles">
            {me.roles.map((r) => (
              <li key={r.id} className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700">
                <ShieldCheck className="h-3 w-3" aria-hidden />
                {r.title}
              </li>
            ))}
          </ul>
        )}
      </div>
      <ButtonLink to={ROUTES.profile(me.slug)} variant="outline" className="shrink-0">View profile</ButtonLink>
    </article>
  );
}

/** 'rbac/widget/subject-overview': the signed-in subject's card */
export function SubjectOverview({ row }: { row: Expanded }) {
  const t = useT();
  const { status, me } = useSubject();
  const title = t(row.title);
  return (
    <section className={cn('mx-auto w-full max-w-7xl px-4 py-8', row.className as string | undefined)}>
      {title && <h2 className="mb-4 text-2xl font-semibold tracking-tight">{title}</h2>}
      {status === 'loading' && <Skeleton className="h-28 w-full rounded-2xl" />}
      {status === 'signed-out' && (
        <p className="rounded-2xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
          <Link to={ROUTES.selectMethod}>Sign in</Link> to see your account.
        </p>
      )}
      {me && <SubjectCard me={me} />}
    </section>
  );
}

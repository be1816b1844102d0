import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck, UserRound } from 'lucide-react';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { cn } from '../../../web/ui/cn.js';
import { targets, useHref, usePage, useT, useTitleTag, Variant, type Expanded } from '../../../web/storefront/context.js';
import { ME_KEY, ROUTES, browser, logout, subjectName, useSubject, type Me } from './session.js';
import { ButtonLink, Link, useRoleTitle } from './ui.js';
import { useRbacWords } from './words.js';

/** 'rbac/widget/default': the title only */
export function DefaultWidget({ row }: { row: Expanded }) {
  const t = useT();
  const Title = useTitleTag(row);
  const title = t(row.title);
  if (!title) return null;
  return (
    <div className={cn('mx-auto max-w-7xl px-4 py-6', row.className as string | undefined)}>
      <Title className="text-2xl font-semibold tracking-tight">{title}</Title>
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
  const w = useRbacWords();
  return (
    <div hidden data-rbac-logout>
      {t(row.title) || w('signingOut')}
    </div>
  );
}

export function Avatar({ name, className }: { name: string; className?: string }) {
  const letter = name.trim().charAt(0).toUpperCase();
  return (
    <span aria-hidden className={cn('inline-flex shrink-0 items-center justify-center rounded-full bg-blue-600/10 font-semibold text-blue-700', className)}>
      {letter || <UserRound className="h-1/2 w-1/2" />}
    </span>
  );
}

export function SubjectCard({ me }: { me: Me }) {
  const name = subjectName(me);
  const w = useRbacWords();
  const roleTitle = useRoleTitle();
  return (
    <article className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:flex-row sm:items-center">
      <Avatar name={name} className="h-16 w-16 text-2xl" />
      <div className="min-w-0 flex-1 space-y-1">
        <h2 className="truncate text-lg font-semibold text-slate-900" title={name}>{name}</h2>
        <p className="truncate text-sm text-slate-500">@{me.slug}</p>
        {me.roles.length > 0 && (
          <ul className="flex flex-wrap gap-1.5 pt-1" aria-label={w('roles')}>
            {me.roles.map((r) => (
              <li key={r.id} className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700">
                <ShieldCheck className="h-3 w-3" aria-hidden />
                {roleTitle(r)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <ButtonLink to={ROUTES.profile(me.slug)} variant="outline" className="shrink-0">{w('viewProfile')}</ButtonLink>
    </article>
  );
}

export const EYEBROW = 'text-sm font-semibold uppercase tracking-wide text-blue-700';

/** a subject's social profiles (subjectsToSocialModuleProfiles → socialModuleProfile) */
export const subjectProfiles = (subject: Expanded | undefined) => targets(subject, 'subjectsToSocialModuleProfiles', 'socialModuleProfile');

/**
 * What a public subject is called: the title of its first social profile that has one (in the page's
 * language), else its name (adminTitle), else, when nothing else exists, its slug.
 */
export function subjectTitle(subject: Expanded, t: (map: unknown) => string): string {
  for (const profile of subjectProfiles(subject)) {
    const title = t(profile.title);
    if (title) return title;
  }
  const name = typeof subject.adminTitle === 'string' ? subject.adminTitle.trim() : '';
  return name || String(subject.slug ?? '');
}

/** a public subject's card: its title (subjectTitle: never the slug while it has a name) and (unless `withProfiles` is false) its social profiles drawn by the social module */
export function PublicSubject({ subject, withProfiles = true }: { subject: Expanded; withProfiles?: boolean }) {
  const t = useT();
  const w = useRbacWords();
  const name = subjectTitle(subject, t);
  const profiles = withProfiles ? subjectProfiles(subject) : [];
  return (
    <div className="space-y-6">
      <article className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <Avatar name={name} className="h-16 w-16 text-2xl" />
        <div className="min-w-0 flex-1 space-y-1">
          <h1 className="truncate text-2xl font-semibold tracking-tight text-slate-900" title={name}>{name}</h1>
        </div>
      </article>
      {profiles.length > 0 && (
        <div role="list" aria-label={w('profiles')} className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3">
          {profiles.map((p) => (
            <div role="listitem" key={p.id}>
              <Variant module="social" entity="profile" row={p} variant="default" />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** the signed-in subject: a skeleton while loading, a sign-in prompt when signed out */
export function SignedInSubject() {
  const { status, me } = useSubject();
  const w = useRbacWords();
  return (
    <>
      {status === 'loading' && <Skeleton className="h-28 w-full rounded-2xl" />}
      {status === 'signed-out' && (
        <p className="rounded-2xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
          {w('signInToSeeAccount')
            .split(/(\{link\})/)
            .map((part, i) => (part === '{link}' ? <Link key={i} to={ROUTES.selectMethod}>{w('signInLink')}</Link> : part))}
        </p>
      )}
      {me && <SubjectCard me={me} />}
    </>
  );
}

/** 'rbac/widget/subject-overview': the page's subject (params['rbac.subject'], public) or else the signed-in subject's card */
export function SubjectOverview({ row }: { row: Expanded }) {
  const t = useT();
  const subject = usePage().params['rbac.subject'];
  const Title = useTitleTag(row);
  const title = t(row.title);
  return (
    <section className={cn('mx-auto w-full max-w-7xl px-4 py-8', row.className as string | undefined)}>
      {/* a public page's h1 is the subject's name: the widget title is then only an eyebrow */}
      {title && subject && <p className={`mb-3 ${EYEBROW}`}>{title}</p>}
      {title && !subject && <Title className="mb-4 text-2xl font-semibold tracking-tight">{title}</Title>}
      {subject ? <PublicSubject subject={subject} /> : <SignedInSubject />}
    </section>
  );
}

/** 'rbac/widget/social-profile-overview': the page subject's social profiles in full ('overview-default') */
export function SocialProfileOverview({ row }: { row: Expanded }) {
  const t = useT();
  const profiles = subjectProfiles(usePage().params['rbac.subject']);
  if (!profiles.length) return null;
  const title = t(row.title);
  // each profile's overview is its own full-width section
  return (
    <div className={cn('w-full', row.className as string | undefined)}>
      {title && (
        <div className="mx-auto max-w-7xl px-4 pt-8">
          <p className={EYEBROW}>{title}</p>
        </div>
      )}
      {profiles.map((p) => (
        <Variant key={p.id} module="social" entity="profile" row={p} variant="overview-default" />
      ))}
    </div>
  );
}

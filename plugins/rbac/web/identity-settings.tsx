import { Skeleton } from '../../../web/ui/skeleton.js';
import { cn } from '../../../web/ui/cn.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { useT, useTitleTag, type Expanded } from '../../../web/storefront/context.js';
import { ROUTES, identityText, useSubject, type Identity } from './session.js';
import { AddEmailIdentityDialog, ChangeEmailDialog, ChangePasswordDialog, DeleteIdentityDialog, ResendVerificationButton } from './identity-dialogs.js';
import { ButtonLink, hasText } from './ui.js';
import { useRbacWords } from './words.js';

/** the provider badge: 'Email' for email and password, 'Telegram' for Telegram, otherwise 'EVM' */
export function providerLabel(provider: Identity['provider']): string {
  if (provider === 'email_and_password') return 'Email';
  if (provider === 'telegram') return 'Telegram';
  return 'EVM';
}

const BADGE: Record<string, string> = {
  Email: 'border-blue-200 bg-blue-50 text-blue-800',
  EVM: 'border-violet-200 bg-violet-50 text-violet-800',
  Telegram: 'border-sky-200 bg-sky-50 text-sky-800',
};

/** the account has an email login, and none of its addresses is proven yet */
const onlyUnproven = (identities: Identity[]) => {
  const emails = identities.filter((i) => i.provider === 'email_and_password');
  return emails.length > 0 && emails.every((i) => !i.emailVerifiedAt);
};

/**
 * 'rbac/widget/identity-settings': the subject's sign-in methods (Provider, Information) with
 * 'Change email', 'Change Password' and 'Delete'; an unverified address shows 'Not verified' and
 * 'Resend'; 'Add email' adds an email and password sign-in.
 */
export function IdentitySettings({ row }: { row: Expanded }) {
  const t = useT();
  const w = useRbacWords();
  const { status, me, refetch } = useSubject();
  const Title = useTitleTag(row);
  const title = t(row.title) || w('signInMethods');
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  return (
    <section className={cn('mx-auto w-full max-w-7xl px-4 py-8 lg:py-12', row.className as string | undefined)}>
      <header className="mb-6 space-y-1">
        <Title className="text-2xl font-semibold tracking-tight">{title}</Title>
        {subtitle && <p className="text-slate-600">{subtitle}</p>}
        {description && hasText(description) && <RichTextView value={description} className="text-sm text-slate-500" />}
      </header>
      {status === 'loading' && (
        <div className="space-y-3" aria-hidden>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-14 w-full" />
          <Skeleton className="h-14 w-full" />
        </div>
      )}
      {status === 'signed-out' && (
        <div className="flex flex-col items-center gap-4 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <p className="text-slate-600">{w('signInToManage')}</p>
          <ButtonLink to={ROUTES.selectMethod} variant="primary">{w('signIn')}</ButtonLink>
        </div>
      )}
      {me && (
        // relative: the header's sr-only text is placed inside the scroller, not past the page's right edge
        <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
          {/* from sm a table; on a phone each identity is a card (badge and address, then its actions): nothing is cut or wrapped */}
          <table className="block w-full text-left text-sm sm:table">
            <thead className="hidden border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500 sm:table-header-group">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">{w('provider')}</th>
                <th scope="col" className="px-4 py-3 font-medium">{w('information')}</th>
                <th scope="col" className="px-4 py-3 text-right font-medium"><span className="sr-only">{w('actions')}</span></th>
              </tr>
            </thead>
            <tbody className="block divide-y divide-slate-100 sm:table-row-group">
              {me.identities.map((identity) => {
                const label = providerLabel(identity.provider);
                const info = identityText(identity);
                return (
                  <tr key={identity.id} className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-3 p-4 sm:table-row sm:p-0">
                    <td className="block sm:table-cell sm:px-4 sm:py-3 sm:align-middle">
                      <span className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium', BADGE[label])}>{label === 'Email' ? w('email') : label}</span>
                    </td>
                    <td className="block min-w-0 sm:table-cell sm:w-full sm:max-w-0 sm:px-4 sm:py-3 sm:align-middle">
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="min-w-0 max-w-full truncate font-medium text-slate-800" title={identity.account ?? identity.email ?? undefined}>{info}</span>
                        {identity.provider === 'email_and_password' && !identity.emailVerifiedAt && (
                          <>
                            <span className="inline-flex items-center whitespace-nowrap rounded-full border border-amber-200 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">{w('notVerified')}</span>
                            <ResendVerificationButton identity={identity} />
                          </>
                        )}
                      </div>
                    </td>
                    <td className="col-span-2 block sm:table-cell sm:px-4 sm:py-3 sm:align-middle">
                      <div className="flex flex-wrap gap-2 sm:justify-end [&_button]:whitespace-nowrap">
                        {identity.provider === 'email_and_password' && (
                          <>
                            <ChangeEmailDialog subjectId={me.id} identity={identity} onChanged={refetch} />
                            <ChangePasswordDialog subjectId={me.id} identity={identity} onChanged={refetch} />
                          </>
                        )}
                        <DeleteIdentityDialog subjectId={me.id} identity={identity} onChanged={refetch} needsCurrentPassword={me.identities.some((i) => i.provider === 'email_and_password')} />
                      </div>
                    </td>
                  </tr>
                );
              })}
              {me.identities.length === 0 && (
                <tr className="block sm:table-row">
                  <td colSpan={3} className="block px-4 py-6 text-center text-slate-500 sm:table-cell">{w('noFoundItems')}</td>
                </tr>
              )}
            </tbody>
          </table>
          <div className="flex flex-wrap items-center justify-end gap-3 border-t border-slate-100 px-4 py-3">
            {/* the server adds no login to an account none of whose addresses is proven yet: said before anyone tries */}
            {onlyUnproven(me.identities) && <p className="mr-auto text-sm text-amber-800">{w('verifyBeforeAdding')}</p>}
            <AddEmailIdentityDialog needsCurrentPassword={me.identities.some((i) => i.provider === 'email_and_password')} onChanged={refetch} />
          </div>
        </div>
      )}
    </section>
  );
}

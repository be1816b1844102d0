import { Skeleton } from '../../../web/ui/skeleton.js';
import { cn } from '../../../web/ui/cn.js';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { useT, type Expanded } from '../../../web/storefront/context.js';
import { ROUTES, identityText, useSubject, type Identity } from './session.js';
import { AddEmailIdentityDialog, ChangeEmailDialog, ChangePasswordDialog, DeleteIdentityDialog, ResendVerificationButton } from './identity-dialogs.js';
import { ButtonLink, hasText } from './ui.js';

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

/**
 * 'rbac/widget/identity-settings': the subject's sign-in methods (Provider, Information) with
 * 'Change email', 'Change Password' and 'Delete'; an unverified address shows 'Not verified' and
 * 'Resend'; 'Add email' adds an email and password sign-in.
 */
export function IdentitySettings({ row }: { row: Expanded }) {
  const t = useT();
  const { status, me, refetch } = useSubject();
  const title = t(row.title) || 'Sign-in methods';
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  return (
    <section className={cn('mx-auto w-full max-w-7xl px-4 py-8 lg:py-12', row.className as string | undefined)}>
      <header className="mb-6 space-y-1">
        <h2 className="text-2xl font-semibold tracking-tight">{title}</h2>
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
          <p className="text-slate-600">Sign in to manage how you access your account.</p>
          <ButtonLink to={ROUTES.selectMethod} variant="primary">Sign in</ButtonLink>
        </div>
      )}
      {me && (
        <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">Provider</th>
                <th scope="col" className="px-4 py-3 font-medium">Information</th>
                <th scope="col" className="px-4 py-3 text-right font-medium"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {me.identities.map((identity) => {
                const label = providerLabel(identity.provider);
                const info = identityText(identity);
                return (
                  <tr key={identity.id}>
                    <td className="px-4 py-3 align-middle">
                      <span className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium', BADGE[label])}>{label}</span>
                    </td>
                    <td className="max-w-[22rem] px-4 py-3 align-middle">
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="truncate font-medium text-slate-800" title={identity.account ?? identity.email ?? undefined}>{info}</span>
                        {identity.provider === 'email_and_password' && !identity.emailVerifiedAt && (
                          <>
                            <span className="inline-flex items-center rounded-full border border-amber-200 bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">Not verified</span>
                            <ResendVerificationButton identity={identity} />
                          </>
                        )}
                      </div>
                    </td>
                    <td className="px-4 py-3 align-middle">
                      <div className="flex flex-wrap justify-end gap-2">
                        {identity.provider === 'email_and_password' && (
                          <>
                            <ChangeEmailDialog subjectId={me.id} identity={identity} onChanged={refetch} />
                            <ChangePasswordDialog subjectId={me.id} identity={identity} onChanged={refetch} />
                          </>
                        )}
                        <DeleteIdentityDialog subjectId={me.id} identity={identity} onChanged={refetch} />
                      </div>
                    </td>
                  </tr>
                );
              })}
              {me.identities.length === 0 && (
                <tr>
                  <td colSpan={3} className="px-4 py-6 text-center text-slate-500">No found items</td>
                </tr>
              )}
            </tbody>
          </table>
          <div className="flex justify-end border-t border-slate-100 px-4 py-3">
            <AddEmailIdentityDialog needsCurrentPassword={me.identities.some((i) => i.provider === 'email_and_password')} onChanged={refetch} />
          </div>
        </div>
      )}
    </section>
  );
}

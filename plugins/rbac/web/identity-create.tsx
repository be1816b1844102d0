import { useState, type FormEvent } from 'react';
import { MailCheck } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../web/ui/button.js';
import { PostForm } from '../../../web/ui/form.js';
import { Skeleton } from '../../../web/ui/skeleton.js';
import type { Expanded } from '../../../web/storefront/context.js';
import { ApiError } from '../../../runtime/client/index.js';
import { ROUTES, http, useSubject, type Me } from './session.js';
import { ActionForm, ButtonLink, Field, FormAlert, WidgetCard, refusalOf, useAction, useChecks } from './ui.js';
import { useRbacWords } from './words.js';

type Step = { at: 'email' } | { at: 'confirm'; email: string } | { at: 'sent'; email: string };

/** whether the subject signs in with a password: then adding a login asks for it (docs/ACCOUNTS.md) */
const hasPassword = (me: Me) => me.identities.some((i) => i.provider === 'email_and_password');

/** the cause the server gave for one field, if any */
const causeOf = (e: unknown, field: string) => (e instanceof ApiError ? e.cause?.find((c) => c.field === field)?.message : undefined);

/**
 * The second step: proof that the account is the subject's before a login is added. With a password,
 * the current one (the new address signs in with it too); without one (wallet or Telegram only), a
 * password for the new address, which the server accepts after a recent sign-in.
 */
function Confirm({ me, email, onBack, onDone }: { me: Me; email: string; onBack: (error?: string) => void; onDone: () => void }) {
  const withPassword = hasPassword(me);
  const w = useRbacWords();
  const check = useChecks();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = check.password(password);
    setError(found);
    if (found) return;
    await action.run(async () => {
      try {
        const data = withPassword ? { email, password, currentPassword: password } : { email, password };
        await http.request('POST', `/api/rbac/subjects/${me.id}/identities`, { data });
      } catch (err) {
        const emailProblem = causeOf(err, 'email');
        if (emailProblem) return onBack(refusalOf(err, w));
        const passwordProblem = causeOf(err, 'currentPassword') ?? causeOf(err, 'password');
        if (passwordProblem) return setError(refusalOf(err, w));
        throw err;
      }
      toast.success(w('updated'));
      onDone();
    });
  };
  return (
    <ActionForm action={action} onSubmit={submit} noValidate aria-label={w('confirmNewEmail')} className="flex flex-col gap-4">
      <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
        {w('addingEmail')} <strong className="break-all font-semibold">{email}</strong>
      </p>
      {withPassword ? (
        <>
          <Field autoFocus label={w('currentPassword')} name="currentPassword" type="password" autoComplete="current-password" required minLength={8} value={password} error={error} onChange={(e) => setPassword(e.target.value)} />
          <p className="text-xs text-slate-500">{w('addWithPassword')}</p>
        </>
      ) : (
        <>
          <Field autoFocus label={w('passwordForEmail')} name="password" type="password" autoComplete="new-password" required minLength={8} value={password} error={error} onChange={(e) => setPassword(e.target.value)} />
          <p className="text-xs text-slate-500">{w('addWithoutPassword')}</p>
        </>
      )}
      <FormAlert>{action.error}</FormAlert>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={() => onBack()} disabled={action.pending}>{w('back')}</Button>
        <Button type="submit" variant="primary" disabled={action.pending} aria-busy={action.pending}>
          {action.pending ? w('adding') : w('addEmail')}
        </Button>
      </div>
    </ActionForm>
  );
}

/**
 * 'rbac/widget/identity-create-by-email' (spec §2): one email field ('Type your email') and Submit, then
 * the account's proof (the current password, or a password for a wallet-only account) and
 * POST /api/rbac/subjects/{id}/identities. The address is unverified until the link mailed to it is
 * opened. Signed-out visitors are asked to sign in; nothing of the subject is in the server's HTML.
 */
export function IdentityCreateByEmail({ row }: { row: Expanded }) {
  const { status, me, refetch } = useSubject();
  const w = useRbacWords();
  const check = useChecks();
  const [step, setStep] = useState<Step>({ at: 'email' });
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const next = (e: FormEvent) => {
    e.preventDefault();
    const found = check.email(email);
    setError(found);
    if (!found) setStep({ at: 'confirm', email: email.trim().toLowerCase() });
  };
  return (
    <WidgetCard row={row} fallbackTitle={w('addAnEmail')}>
      {status === 'loading' && (
        <div className="space-y-3" aria-hidden>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      )}
      {status === 'signed-out' && (
        <div className="flex flex-col items-center gap-4 text-center">
          <p className="text-slate-600">{w('signInToAddEmail')}</p>
          <ButtonLink to={ROUTES.selectMethod} variant="primary">{w('signIn')}</ButtonLink>
        </div>
      )}
      {me && step.at === 'email' && (
        <PostForm onSubmit={next} noValidate aria-label={w('addAnEmail')} className="flex flex-col gap-4">
          <Field label={w('email')} type="email" name="email" autoComplete="email" placeholder={w('typeYourEmail')} required value={email} error={error} onChange={(e) => setEmail(e.target.value)} />
          <Button type="submit" variant="primary">{w('submit')}</Button>
        </PostForm>
      )}
      {me && step.at === 'confirm' && (
        <Confirm
          me={me}
          email={step.email}
          onBack={(problem) => {
            setError(problem);
            setStep({ at: 'email' });
          }}
          onDone={() => {
            setStep({ at: 'sent', email: step.email });
            setEmail('');
            void refetch();
          }}
        />
      )}
      {me && step.at === 'sent' && (
        <div role="status" className="flex flex-col items-center gap-3 text-center">
          <span className="flex h-12 w-12 items-center justify-center rounded-full bg-green-100 text-green-700">
            <MailCheck className="h-6 w-6" aria-hidden />
          </span>
          <p className="text-slate-700">
            <strong className="break-all">{step.email}</strong> {w('emailAdded')}
          </p>
          <div className="flex flex-wrap justify-center gap-2">
            <ButtonLink to={ROUTES.settings} variant="outline">{w('signInMethods')}</ButtonLink>
            <Button variant="ghost" onClick={() => setStep({ at: 'email' })}>{w('addAnother')}</Button>
          </div>
        </div>
      )}
    </WidgetCard>
  );
}

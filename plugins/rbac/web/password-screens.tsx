import { useEffect, useState, type FormEvent } from 'react';
import { MailCheck } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../web/ui/button.js';
import { useHref, type Expanded } from '../../../web/storefront/context.js';
import { AUTH, ROUTES, browser, http, useSubject } from './session.js';
import { ActionForm, ButtonLink, Field, FormAlert, Link, WidgetCard, besideFields, useAction, useChecks, useCredentialsForm } from './ui.js';
import { useRbacWords } from './words.js';

/** how long the reset screen lets its toast be read before going to the sign-in page */
export const RESET_REDIRECT_MS = 1500;

/**
 * 'rbac/widget/registration': Email, Password, 'Create an account'. The server answers a known address as it answers a
 * new one (a session, and a mail to the address's owner instead of an account): so success always says the same —
 * check your email, where the message to verify the address is — with a way on to the home page.
 */
export function Registration({ row }: { row: Expanded }) {
  const w = useRbacWords();
  const [sentTo, setSentTo] = useState<string>();
  const { login, setLogin, password, setPassword, errors, action, submit } = useCredentialsForm('registration', () => setSentTo(login.trim()));
  return (
    <WidgetCard row={row} fallbackTitle={w('createAnAccount')} intro={!sentTo} footer={<>{w('haveAccount')} <Link to={ROUTES.selectMethod}>{w('signIn')}</Link></>}>
      {sentTo ? (
        <div role="status" className="flex flex-col items-center gap-3 text-center">
          <span className="flex h-12 w-12 items-center justify-center rounded-full bg-green-100 text-green-700">
            <MailCheck className="h-6 w-6" aria-hidden />
          </span>
          <p className="font-semibold text-slate-900">{w('checkEmail')}</p>
          <p className="break-words text-sm text-slate-700">{w('checkEmailText', { email: sentTo })}</p>
          <ButtonLink to="/" variant="primary">{w('continue')}</ButtonLink>
        </div>
      ) : (
        <ActionForm action={action} onSubmit={submit} noValidate aria-label={w('registration')} className="flex flex-col gap-4">
          <Field label={w('email')} type="email" name="email" autoComplete="email" required value={login} error={errors.login} onChange={(e) => setLogin(e.target.value)} />
          <Field label={w('password')} type="password" name="password" autoComplete="new-password" required minLength={8} value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
          <FormAlert>{action.error}</FormAlert>
          <Button type="submit" variant="primary" disabled={action.pending} aria-busy={action.pending}>
            {action.pending ? w('creatingAccount') : w('createAnAccount')}
          </Button>
        </ActionForm>
      )}
    </WidgetCard>
  );
}

/** 'rbac/widget/forgot-password': one email field; the answer is the same whether or not the account exists */
export function ForgotPassword({ row }: { row: Expanded }) {
  const w = useRbacWords();
  const check = useChecks();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState(false);
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = check.email(email);
    setError(found);
    if (found) return;
    await action.run(async () => {
      await http.request('POST', `${AUTH}/email-and-password/forgot-password`, { data: { email: email.trim() } });
      toast.success(w('resetLinkSent'));
      setSent(true);
    });
  };
  return (
    <WidgetCard row={row} fallbackTitle={w('forgotTitle')} footer={<>{w('remembered')} <Link to={ROUTES.selectMethod}>{w('signIn')}</Link></>}>
      <ActionForm action={action} onSubmit={submit} noValidate aria-label={w('forgotTitle')} className="flex flex-col gap-4">
        <Field label={w('email')} type="email" name="email" autoComplete="email" required value={email} error={error} onChange={(e) => setEmail(e.target.value)} />
        <FormAlert>{action.error}</FormAlert>
        {sent && (
          <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
            {w('resetSentText')}
          </p>
        )}
        <Button type="submit" variant="primary" disabled={action.pending} aria-busy={action.pending}>
          {action.pending ? w('sending') : w('sendResetLink')}
        </Button>
      </ActionForm>
    </WidgetCard>
  );
}

/** 'rbac/widget/reset-password': the new password twice; the code comes from the link's ?code= */
export function ResetPassword({ row }: { row: Expanded }) {
  const href = useHref();
  const w = useRbacWords();
  const check = useChecks();
  // read in an effect: the server render has no location
  const [code, setCode] = useState<string | null>();
  const [password, setPassword] = useState('');
  const [passwordConfirmation, setPasswordConfirmation] = useState('');
  const [errors, setErrors] = useState<{ password?: string; passwordConfirmation?: string }>({});
  const [done, setDone] = useState(false);
  const action = useAction();
  useEffect(() => setCode(new URLSearchParams(window.location.search).get('code')), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code || done) return;
    const found = {
      password: check.password(password),
      passwordConfirmation: check.password(passwordConfirmation) ?? (passwordConfirmation !== password ? w('passwordsDiffer') : undefined),
    };
    setErrors(found);
    if (found.password || found.passwordConfirmation) return;
    await action.run(async () => {
      await http.request('POST', `${AUTH}/email-and-password/reset-password`, { data: { code, password, passwordConfirmation } });
      toast.success(w('resetDone'));
      setDone(true);
      setTimeout(() => browser.go(href(ROUTES.login)), RESET_REDIRECT_MS);
    });
  };
  return (
    <WidgetCard row={row} fallbackTitle={w('resetTitle')} footer={<Link to={ROUTES.forgotPassword}>{w('requestNewLink')}</Link>}>
      <ActionForm action={action} onSubmit={submit} noValidate aria-label={w('resetTitle')} className="flex flex-col gap-4">
        <Field label={w('newPassword')} name="password" type="password" autoComplete="new-password" required minLength={8} value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
        <Field
          label={w('confirmNewPassword')}
          name="passwordConfirmation"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={passwordConfirmation}
          error={errors.passwordConfirmation}
          onChange={(e) => setPasswordConfirmation(e.target.value)}
        />
        {code === null && <FormAlert>{w('resetNeedsLink')}</FormAlert>}
        <FormAlert>{action.error}</FormAlert>
        {done && <p role="status" className="text-sm text-green-700">{w('resetChanged')}</p>}
        <Button type="submit" variant="primary" disabled={!code || done || action.pending} aria-busy={action.pending}>
          {action.pending ? w('resetting') : w('resetTitle')}
        </Button>
      </ActionForm>
    </WidgetCard>
  );
}

/** the identity a verification code names: its first part (plugins/rbac/server/verification.ts) */
const identityOfCode = (code: string) => code.split('.')[0];

/**
 * 'rbac/widget/verify-email': the page the verification email links to. Opening it sends nothing (a link scanner or a
 * preview that opens the link verifies nothing): the visitor presses 'Verify email'. Signed in as the subject whose
 * login the code names, the code alone verifies; anyone else also gives that account's password (the server asks for
 * it: docs/ACCOUNTS.md), with a way to reset it for someone who does not know it — a reset by the mailed code proves
 * the address too. The server's refusals stand beside the password, or, for a bad or expired code, with a way to a
 * new link.
 */
export function VerifyEmail({ row }: { row: Expanded }) {
  const w = useRbacWords();
  const { status, me } = useSubject();
  // read in an effect: the server render has no location
  const [code, setCode] = useState<string | null>();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  // the server asked for the password although the session seemed to own the login
  const [asked, setAsked] = useState(false);
  const [codeRefused, setCodeRefused] = useState(false);
  const [verified, setVerified] = useState<string>();
  const action = useAction();
  useEffect(() => setCode(new URLSearchParams(window.location.search).get('code')), []);
  const own = code ? me?.identities.find((i) => i.id === identityOfCode(code)) : undefined;
  const needsPassword = asked || status === 'signed-out' || (status === 'signed-in' && !own);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code || codeRefused || status === 'loading') return;
    const missing = needsPassword && !password ? w('enterPassword') : undefined;
    setPasswordError(missing);
    if (missing) return;
    await action.run(async () => {
      const r = await besideFields(
        () => http.request<{ message: string; email: string }>('POST', `${AUTH}/email-and-password/verify`, { data: needsPassword ? { code, password } : { code } }),
        { password: (rule) => (rule === 'match' ? w('wrongPassword') : w('enterPassword')), code: () => w('verifyInvalid') },
        (found) => {
          if (found.password) setAsked(true);
          if (found.code) setCodeRefused(true);
          action.setFields(found.password ? { password: found.password } : {});
        },
      );
      setVerified(r.email);
      toast.success(w('emailVerified'));
    });
  };
  return (
    <WidgetCard row={row} fallbackTitle={w('verifyTitle')} intro={!verified && !codeRefused && code !== null} footer={<Link to={ROUTES.settings}>{w('signInMethods')}</Link>}>
      <div className="flex flex-col gap-4" aria-live="polite">
        {code === null && <FormAlert>{w('verifyNeedsLink')}</FormAlert>}
        {verified && (
          <>
            <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
              {w('verifiedText', { email: verified })}
            </p>
            <ButtonLink to="/" variant="primary">{w('continue')}</ButtonLink>
          </>
        )}
        {codeRefused && (
          <>
            <FormAlert>{w('verifyInvalid')}</FormAlert>
            <ButtonLink to={ROUTES.settings} variant="primary">{w('sendNewLink')}</ButtonLink>
          </>
        )}
        {code !== null && !verified && !codeRefused && (
          <ActionForm action={action} onSubmit={submit} noValidate aria-label={w('verifyTitle')} className="flex flex-col gap-4">
            <p className="text-center text-sm text-slate-700">{own?.email ? w('verifyAskEmail', { email: own.email }) : w('verifyAsk')}</p>
            {needsPassword && (
              <>
                <Field
                  label={w('accountPassword')}
                  type="password"
                  name="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  error={passwordError ?? action.fields.password}
                  onChange={(e) => setPassword(e.target.value)}
                />
                <p className="text-sm text-slate-600">
                  {w('notYourAccount')} <Link to={ROUTES.forgotPassword}>{w('resetThePassword')}</Link>
                </p>
              </>
            )}
            <FormAlert>{action.error}</FormAlert>
            <Button type="submit" variant="primary" disabled={!code || status === 'loading' || action.pending} aria-busy={action.pending}>
              {action.pending ? w('verifying') : w('verifyEmail')}
            </Button>
          </ActionForm>
        )}
      </div>
    </WidgetCard>
  );
}

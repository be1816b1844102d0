import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../web/ui/button.js';
import { useHref, type Expanded } from '../../../web/storefront/context.js';
import { AUTH, ROUTES, browser, http } from './session.js';
import { ActionForm, ButtonLink, Field, FormAlert, Link, WidgetCard, useAction, useChecks, useCredentialsForm } from './ui.js';
import { useRbacWords } from './words.js';

/** how long the reset screen lets its toast be read before going to the sign-in page */
export const RESET_REDIRECT_MS = 1500;

/** 'rbac/widget/registration': Email, Password, 'Create an account'; success signs in and goes home */
export function Registration({ row }: { row: Expanded }) {
  const href = useHref();
  const w = useRbacWords();
  const { login, setLogin, password, setPassword, errors, action, submit } = useCredentialsForm('registration', () => browser.go(href('/')));
  return (
    <WidgetCard row={row} fallbackTitle={w('createAnAccount')} footer={<>{w('haveAccount')} <Link to={ROUTES.selectMethod}>{w('signIn')}</Link></>}>
      <ActionForm action={action} onSubmit={submit} noValidate aria-label={w('registration')} className="flex flex-col gap-4">
        <Field label={w('email')} type="email" name="email" autoComplete="email" required value={login} error={errors.login} onChange={(e) => setLogin(e.target.value)} />
        <Field label={w('password')} type="password" name="password" autoComplete="new-password" required minLength={8} value={password} error={errors.password} onChange={(e) => setPassword(e.target.value)} />
        <FormAlert>{action.error}</FormAlert>
        <Button type="submit" variant="primary" disabled={action.pending} aria-busy={action.pending}>
          {action.pending ? w('creatingAccount') : w('createAnAccount')}
        </Button>
      </ActionForm>
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

/**
 * 'rbac/widget/verify-email': the page the verification email links to. It posts the link's ?code=
 * once, in the browser (a server render or a link preview verifies nothing), and says how it went.
 */
export function VerifyEmail({ row }: { row: Expanded }) {
  const w = useRbacWords();
  const verifiedWord = w('emailVerified');
  const invalidWord = w('verifyInvalid');
  const [code, setCode] = useState<string | null>();
  const [verified, setVerified] = useState<string>();
  const action = useAction();
  const sent = useRef(false);
  const run = action.run;
  useEffect(() => setCode(new URLSearchParams(window.location.search).get('code')), []);
  useEffect(() => {
    if (!code || sent.current) return;
    sent.current = true;
    void run(async () => {
      try {
        const r = await http.request<{ message: string; email: string }>('POST', `${AUTH}/email-and-password/verify`, { data: { code } });
        setVerified(r.email);
        toast.success(verifiedWord);
      } catch (e) {
        toast.error(invalidWord);
        throw e;
      }
    });
  }, [code, run, verifiedWord, invalidWord]);
  return (
    // the row's texts say what happens while the link is checked ('One moment'): gone once it is known how it went
    <WidgetCard row={row} fallbackTitle={w('verifyTitle')} intro={!verified && !action.error && code !== null} footer={<Link to={ROUTES.settings}>{w('signInMethods')}</Link>}>
      <div className="flex flex-col gap-4" aria-live="polite">
        {(code === undefined || action.pending) && <p role="status" className="text-center text-sm text-slate-600">{w('verifying')}</p>}
        {code === null && <FormAlert>{w('verifyNeedsLink')}</FormAlert>}
        <FormAlert>{action.error}</FormAlert>
        {verified && (
          <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
            {w('verifiedText', { email: verified })}
          </p>
        )}
        {(verified || action.error) && <ButtonLink to={verified ? '/' : ROUTES.settings} variant="primary">{verified ? w('continue') : w('sendNewLink')}</ButtonLink>}
      </div>
    </WidgetCard>
  );
}

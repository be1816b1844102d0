import { Button } from '../../../web/ui/button.js';
import { cn } from '../../../web/ui/cn.js';
import type { SignedIn } from './session.js';
import { ActionForm, Field, FormAlert, Link, useCredentialsForm } from './ui.js';
import { useRbacWords } from './words.js';

export { REFRESH_KEY } from './session.js';

export interface LoginFormProps {
  /** called after the refresh token is stored and the session cookie set */
  onSignedIn?: (session: SignedIn) => void;
  /** the form's heading and accessible name */
  title?: string;
  /** inside a widget card: no card chrome and no heading of its own */
  embedded?: boolean;
  /** shows a 'Forgot password?' link next to Password */
  forgotPasswordHref?: string;
  /** shows a 'Sign up' link under the button */
  signUpHref?: string;
}

/**
 * The rbac module's email and password sign-in: Email, Password, Login. On success the session
 * cookie is set by the server and the refresh token is kept in local storage (spec §4). The admin
 * uses it as 'rbac/subject/login-form' with { title, onSignedIn }.
 */
export function LoginForm({ onSignedIn, title: ownTitle, embedded = false, forgotPasswordHref, signUpHref }: LoginFormProps) {
  const w = useRbacWords();
  const title = ownTitle ?? w('signIn');
  const { login, setLogin, password, setPassword, errors, action, submit } = useCredentialsForm('authentication', (r) => onSignedIn?.(r));

  return (
    <ActionForm
      action={action}
      onSubmit={submit}
      noValidate
      aria-label={title}
      className={cn('flex w-full flex-col gap-4', !embedded && 'max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm')}
    >
      {!embedded && <h1 className="text-xl font-semibold">{title}</h1>}
      <Field label={w('email')} type="email" name="email" autoComplete="username" required value={login} error={errors.login} onChange={(e) => setLogin(e.target.value)} />
      <Field
        label={w('password')}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        minLength={8}
        value={password}
        error={errors.password}
        onChange={(e) => setPassword(e.target.value)}
        aside={forgotPasswordHref && <Link to={forgotPasswordHref} className="text-sm font-normal">{w('forgotPassword')}</Link>}
      />
      <FormAlert>{action.error}</FormAlert>
      <Button type="submit" variant="primary" disabled={action.pending} aria-busy={action.pending}>
        {action.pending ? w('loading') : w('login')}
      </Button>
      {signUpHref && (
        <p className="text-center text-sm text-slate-600">
          {w('noAccount')} <Link to={signUpHref}>{w('signUp')}</Link>
        </p>
      )}
    </ActionForm>
  );
}

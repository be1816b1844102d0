import { useState } from 'react';
import { Mail, Wallet } from 'lucide-react';
import { Button } from '../../../web/ui/button.js';
import { useHref, type Expanded } from '../../../web/storefront/context.js';
import { LoginForm } from './login-form.js';
import { ROUTES, browser } from './session.js';
import { Link, WidgetCard } from './ui.js';
import { WalletSignIn } from './wallet.js';

const METHODS = [
  { id: 'email', label: 'Login and Password', Icon: Mail },
  { id: 'evm', label: 'Ethereum Virtual Machine', Icon: Wallet },
] as const;
type Method = (typeof METHODS)[number]['id'];

/** sign-in success goes home (spec §9), in the page's language */
function useGoHome() {
  const href = useHref();
  return () => browser.go(href('/'));
}

/** 'rbac/widget/login': the email and password form with its forgot-password and sign-up links */
export function LoginWidget({ row }: { row: Expanded }) {
  const goHome = useGoHome();
  return (
    <WidgetCard row={row} fallbackTitle="Sign in">
      <LoginForm embedded onSignedIn={goHome} forgotPasswordHref={ROUTES.forgotPassword} signUpHref={ROUTES.registration} />
    </WidgetCard>
  );
}

/**
 * 'rbac/widget/select-method': the widget's texts, the chosen sign-in method, and under
 * 'Or continue with' the buttons that switch between them.
 */
export function SelectMethod({ row }: { row: Expanded }) {
  const [method, setMethod] = useState<Method>('email');
  const goHome = useGoHome();
  return (
    <WidgetCard row={row} fallbackTitle="Sign in">
      <div id="rbac-sign-in-method">
        {method === 'email' ? (
          <LoginForm embedded onSignedIn={goHome} forgotPasswordHref={ROUTES.forgotPassword} signUpHref={ROUTES.registration} />
        ) : (
          <WalletSignIn onSignedIn={goHome} />
        )}
      </div>
      <div className="mt-6 flex items-center gap-3">
        <span className="h-px flex-1 bg-slate-200" />
        <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">Or continue with</h3>
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <div className="mt-4 grid grid-cols-1 gap-2" role="group" aria-label="Sign-in method">
        {METHODS.map(({ id, label, Icon }) => (
          <Button
            key={id}
            variant={method === id ? 'secondary' : 'outline'}
            aria-pressed={method === id}
            aria-controls="rbac-sign-in-method"
            onClick={() => setMethod(id)}
            className="h-auto min-h-10 py-2 text-center"
          >
            <Icon className="h-4 w-4 shrink-0" aria-hidden />
            {label}
          </Button>
        ))}
      </div>
      {method === 'evm' && (
        <p className="mt-6 text-center text-sm text-slate-600">
          New here? <Link to={ROUTES.registration}>Create an account</Link> with your email.
        </p>
      )}
    </WidgetCard>
  );
}

import { useState } from 'react';
import { Check, Mail, Wallet } from 'lucide-react';
import { Button } from '../../../web/ui/button.js';
import { useHref, type Expanded } from '../../../web/storefront/context.js';
import { LoginForm } from './login-form.js';
import { ROUTES, browser } from './session.js';
import { Link, WidgetCard } from './ui.js';
import { WalletSignIn } from './wallet.js';
import { useRbacWords } from './words.js';
import { cn } from '../../../web/ui/cn.js';

/** the sign-in methods under 'Or continue with' (spec §2), their labels being words of the rbac scope */
const METHODS = [
  { id: 'email', label: 'methodEmail', Icon: Mail },
  { id: 'evm', label: 'methodEvm', Icon: Wallet },
] as const;
type Method = (typeof METHODS)[number]['id'];
/** how the method being shown looks: filled and outlined in blue (the other is a plain outline button) */
export const SELECTED = 'border-2 border-blue-600 bg-blue-50 text-blue-900 hover:bg-blue-50';

/** sign-in success goes home (spec §9), in the page's language */
function useGoHome() {
  const href = useHref();
  return () => browser.go(href('/'));
}

/** 'rbac/widget/login': the email and password form with its forgot-password and sign-up links */
export function LoginWidget({ row }: { row: Expanded }) {
  const goHome = useGoHome();
  const w = useRbacWords();
  return (
    <WidgetCard row={row} fallbackTitle={w('signIn')}>
      <LoginForm embedded onSignedIn={goHome} forgotPasswordHref={ROUTES.forgotPassword} signUpHref={ROUTES.registration} />
    </WidgetCard>
  );
}

/**
 * 'rbac/widget/select-method': the widget's texts, the chosen sign-in method, and under
 * 'Or continue with' both methods as toggle buttons: the one shown is pressed (aria-pressed) and looks
 * chosen (filled, with a check mark), so it does not read as another choice; the other switches to it.
 */
export function SelectMethod({ row }: { row: Expanded }) {
  const [method, setMethod] = useState<Method>('email');
  const goHome = useGoHome();
  const w = useRbacWords();
  return (
    <WidgetCard row={row} fallbackTitle={w('signIn')}>
      <div id="rbac-sign-in-method">
        {method === 'email' ? (
          <LoginForm embedded onSignedIn={goHome} forgotPasswordHref={ROUTES.forgotPassword} signUpHref={ROUTES.registration} />
        ) : (
          <WalletSignIn onSignedIn={goHome} />
        )}
      </div>
      <div className="mt-6 flex items-center gap-3">
        <span className="h-px flex-1 bg-slate-200" />
        <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">{w('orContinueWith')}</h3>
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <div className="mt-4 grid grid-cols-1 gap-2" role="group" aria-label={w('signInMethod')}>
        {METHODS.map(({ id, label, Icon }) => {
          const selected = method === id;
          return (
            <Button
              key={id}
              variant={selected ? 'ghost' : 'outline'}
              aria-pressed={selected}
              aria-controls="rbac-sign-in-method"
              data-selected={selected || undefined}
              onClick={() => setMethod(id)}
              className={cn('h-auto min-h-10 py-2 text-center', selected && SELECTED)}
            >
              <Icon className="h-4 w-4 shrink-0" aria-hidden />
              {w(label)}
              {selected && <Check className="h-4 w-4 shrink-0 text-blue-700" aria-hidden data-check />}
            </Button>
          );
        })}
      </div>
      {method === 'evm' && (
        <p className="mt-6 text-center text-sm text-slate-600">
          {w('newHere')} <Link to={ROUTES.registration}>{w('createAnAccountLink')}</Link> {w('withYourEmail')}
        </p>
      )}
    </WidgetCard>
  );
}

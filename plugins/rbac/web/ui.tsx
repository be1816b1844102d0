import { useCallback, useId, useRef, useState, type AnchorHTMLAttributes, type FormEvent, type FormHTMLAttributes, type InputHTMLAttributes, type ReactNode } from 'react';
import { Input } from '../../../web/ui/input.js';
import { RichTextView, richTextPlain } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';
import { BUTTON_VARIANTS } from '../../../web/ui/button.js';
import { useHref, useT, useTitleTag, type Expanded } from '../../../web/storefront/context.js';
import { ApiError } from '../../../runtime/client/index.js';
import { AUTH, http, messageOf, storeRefresh, type SignedIn } from './session.js';
import { useRbacWords } from './words.js';

export const PASSWORD_MIN = 8;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** client-side checks (spec §5); the server checks again */
export const checkEmail = (v: string) => (EMAIL_RE.test(v.trim()) ? undefined : 'Enter a valid email address');
export const checkPassword = (v: string) => (v.length >= PASSWORD_MIN ? undefined : `Use at least ${PASSWORD_MIN} characters`);

/** the same checks, their messages in the page's language */
export function useChecks() {
  const w = useRbacWords();
  return {
    email: (v: string) => (checkEmail(v) ? w('invalidEmail') : undefined),
    password: (v: string) => (checkPassword(v) ? w('shortPassword', { min: PASSWORD_MIN }) : undefined),
  };
}

/** a labelled input; its error is announced (role=alert) and described on the input */
export function Field({ label, error, aside, className, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; aside?: ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">{label}</label>
        {aside}
      </div>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...props} />
      {error && <p id={errorId} role="alert" className="text-sm text-red-600">{error}</p>}
    </div>
  );
}

/** a form-level error */
export function FormAlert({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">{children}</p>;
}

/** an internal link with the language prefix */
export function Link({ to, className, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const href = useHref();
  return <a href={href(to)} className={cn('font-medium text-blue-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600', className)} {...props} />;
}

/** an internal link that looks like a Button */
export function ButtonLink({ to, variant = 'default', className, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; variant?: keyof typeof BUTTON_VARIANTS }) {
  const href = useHref();
  return (
    <a
      href={href(to)}
      className={cn('inline-flex h-10 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600', BUTTON_VARIANTS[variant], className)}
      {...props}
    />
  );
}

/**
 * One async action at a time: `run` ignores calls while pending and keeps the error's message.
 * @example const save = useAction(); save.run(() => http.request(…))
 */
export function useAction() {
  const w = useRbacWords();
  const fallback = w('somethingWrong');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const busy = useRef(false);
  const run = useCallback(async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    if (busy.current) return undefined;
    busy.current = true;
    setPending(true);
    setError(undefined);
    try {
      return await fn();
    } catch (e) {
      setError(messageOf(e, fallback));
      return undefined;
    } finally {
      busy.current = false;
      setPending(false);
    }
  }, [fallback]);
  return { run, pending, error, setError };
}

/**
 * A form that shows an action's server error: editing any of its fields or submitting it again clears that
 * error, so an answer about an earlier attempt never stands beside the checks of a new one.
 * @example <ActionForm action={save} onSubmit={submit}>…<FormAlert>{save.error}</FormAlert></ActionForm>
 */
export function ActionForm({ action, onSubmit, onChange, ...props }: Omit<FormHTMLAttributes<HTMLFormElement>, 'action' | 'onSubmit'> & {
  action: Pick<ReturnType<typeof useAction>, 'error' | 'setError'>;
  onSubmit: (e: FormEvent<HTMLFormElement>) => unknown;
}) {
  return (
    <form
      {...props}
      onChange={(e) => {
        if (action.error) action.setError(undefined);
        onChange?.(e);
      }}
      onSubmit={(e) => {
        action.setError(undefined);
        return onSubmit(e);
      }}
    />
  );
}

export const hasText = (value: string) => richTextPlain(value).trim() !== '';

/** the widget row's title (the page's h1 when it leads the page), subtitle and description over the screen's content, in a centred card */
export function WidgetCard({ row, fallbackTitle, children, footer }: { row: Expanded; fallbackTitle: string; children: ReactNode; footer?: ReactNode }) {
  const t = useT();
  const Title = useTitleTag(row);
  const title = t(row.title) || fallbackTitle;
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  return (
    <section className={cn('mx-auto w-full max-w-7xl px-4 py-10 lg:py-16', row.className as string | undefined)}>
      <div className="mx-auto w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <header className="mb-6 space-y-1.5 text-center">
          <Title className="text-2xl font-semibold tracking-tight text-slate-900">{title}</Title>
          {subtitle && <p className="text-sm font-medium text-slate-600">{subtitle}</p>}
          {description && hasText(description) && <RichTextView value={description} className="text-sm text-slate-500" />}
        </header>
        {children}
        {footer && <div className="mt-6 text-center text-sm text-slate-600">{footer}</div>}
      </div>
    </section>
  );
}

/**
 * The email and password form both sign-in and registration use: its fields, their checks, and one
 * POST at a time that stores the refresh token on success (spec §4).
 */
export function useCredentialsForm(route: 'authentication' | 'registration', onDone: (r: SignedIn) => void) {
  const w = useRbacWords();
  const check = useChecks();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ login?: string; password?: string }>({});
  const action = useAction();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = { login: check.email(login), password: check.password(password) };
    setErrors(found);
    if (found.login || found.password) return;
    await action.run(async () => {
      try {
        const r = await http.request<SignedIn>('POST', `${AUTH}/email-and-password/${route}`, { data: { login: login.trim(), password } });
        storeRefresh(r.refresh);
        onDone(r);
      } catch (err) {
        if (route === 'authentication' && err instanceof ApiError && err.status === 401) throw new Error(w('invalidCredentials'));
        throw err;
      }
    });
  };
  return { login, setLogin, password, setPassword, errors, action, submit };
}

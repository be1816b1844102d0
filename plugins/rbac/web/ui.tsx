import { useCallback, useId, useRef, useState, type AnchorHTMLAttributes, type FormEvent, type FormHTMLAttributes, type InputHTMLAttributes, type ReactNode } from 'react';
import { Input } from '../../../web/ui/input.js';
import { RichTextView, richTextPlain } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';
import { BUTTON_VARIANTS } from '../../../web/ui/button.js';
import { PostForm } from '../../../web/ui/form.js';
import { pick, useHref, usePage, useT, useTitleTag, type Expanded } from '../../../web/storefront/context.js';
import { ApiError } from '../../../runtime/client/index.js';
import { AUTH, http, messageOf, storeRefresh, type Role, type SignedIn } from './session.js';
import { useRbacWords } from './words.js';

export const PASSWORD_MIN = 8;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** client-side checks (spec §5); the server checks again */
export const checkEmail = (v: string) => (EMAIL_RE.test(v.trim()) ? undefined : 'Enter a valid email address');
export const checkPassword = (v: string) => (v.length >= PASSWORD_MIN ? undefined : `Use at least ${PASSWORD_MIN} characters`);

/**
 * The same checks, their messages in the page's language. `currentPassword` only asks for one: how long it is is the
 * server's to judge (a wrong one is said beside the field, `besideFields`).
 */
export function useChecks() {
  const w = useRbacWords();
  return {
    email: (v: string) => (checkEmail(v) ? w('invalidEmail') : undefined),
    password: (v: string) => (checkPassword(v) ? w('shortPassword', { min: PASSWORD_MIN }) : undefined),
    currentPassword: (v: string) => (v ? undefined : w('enterCurrentPassword')),
  };
}

type RbacWord = Parameters<ReturnType<typeof useRbacWords>>[0];

/**
 * The refusals of the account routes (plugins/rbac/server/routes) a visitor meets on these screens, by the message
 * the server answers, and the word that says each in the page's language (in English, the server's own text). Any
 * other message is shown as the server wrote it (`messageOf`).
 */
export const SERVER_REFUSALS = {
  'An account with this email already exists': 'emailTaken',
  'The reset code is invalid or has expired': 'resetCodeInvalid',
  'The verification code is invalid or has expired': 'verifyCodeInvalid',
  'The current password is wrong': 'wrongCurrentPassword',
  'An account keeps at least one identity: add another before deleting this one': 'lastIdentity',
  'This wallet is already a login of this account': 'walletLinkedHere',
  'This wallet is a login of another account': 'walletLinkedElsewhere',
} as const satisfies Record<string, RbacWord>;

/** what an account screen says of a failed request: a known refusal in the page's language, else `messageOf` */
export function refusalOf(e: unknown, w: (key: RbacWord) => string, fallback = w('somethingWrong')): string {
  const own = e instanceof ApiError ? e.message.split(' | ')[0] : undefined;
  return own && Object.hasOwn(SERVER_REFUSALS, own) ? w(SERVER_REFUSALS[own as keyof typeof SERVER_REFUSALS]) : messageOf(e, fallback);
}

/** thrown by an action whose failure is already shown beside its fields: `useAction` keeps no form-level error for it */
export class ShownBesideFields extends Error {}

/**
 * Runs a request; a server's 400 whose causes name the form's fields (`messages`: field → the message for a cause's
 * rule) shows those beside them (`show`) instead of as the form's alert, and the action ends there. A cause about
 * another field leaves the error to the form's alert.
 * @example await action.run(() => besideFields(() => http.request(…), { password: (rule) => w('wrongCurrentPassword') }, action.setFields))
 */
export async function besideFields<T>(request: () => Promise<T>, messages: Record<string, (rule: string | undefined, serverMessage: string) => string>, show: (errors: Record<string, string>) => void): Promise<T> {
  try {
    return await request();
  } catch (e) {
    const causes = e instanceof ApiError ? (e.cause ?? []).filter((c) => c.field) : [];
    if (causes.length && causes.every((c) => Object.hasOwn(messages, c.field!))) {
      const found: Record<string, string> = {};
      for (const c of causes) found[c.field!] ??= messages[c.field!](c.rule, c.message);
      show(found);
      throw new ShownBesideFields();
    }
    throw e;
  }
}

/** the roles every site has (plugins/rbac/defaults.json), by slug: their titles are words of each language */
const BUILT_IN_ROLES = { member: 'roleMember', admin: 'roleAdmin' } as const;

/**
 * A role's title in the page's language: a title given per language (a language map) picks it; a role's title is
 * otherwise one text, in the default language, so on a page in another language a built-in role (member, admin) is
 * named by the words (rbac words roleMember, roleAdmin) and any other by its title as it is.
 * @example const roleTitle = useRoleTitle(); <li>{roleTitle(role)}</li>
 */
export function useRoleTitle() {
  const page = usePage();
  const w = useRbacWords();
  return (role: Pick<Role, 'slug' | 'title'>): string => {
    const title: unknown = role.title;
    if (title && typeof title === 'object') return pick(title, page);
    const word = Object.hasOwn(BUILT_IN_ROLES, role.slug) ? BUILT_IN_ROLES[role.slug as keyof typeof BUILT_IN_ROLES] : undefined;
    if (word && (page.language !== page.defaultLanguage || !title)) return w(word);
    return typeof title === 'string' && title ? title : role.slug;
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
  // the words of the page's language, read when a request fails (a new function each render: kept out of `run`'s deps)
  const words = useRef(w);
  words.current = w;
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [fields, setFields] = useState<Record<string, string>>(NO_FIELDS);
  const busy = useRef(false);
  const run = useCallback(async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    if (busy.current) return undefined;
    busy.current = true;
    setPending(true);
    setError(undefined);
    setFields(NO_FIELDS);
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof ShownBesideFields)) setError(refusalOf(e, words.current, fallback));
      return undefined;
    } finally {
      busy.current = false;
      setPending(false);
    }
  }, [fallback]);
  /** the server's error: its message for the form's alert, or by field (`besideFields`) for the inputs it names */
  return { run, pending, error, setError, fields, setFields };
}
const NO_FIELDS: Record<string, string> = {};

/**
 * A form that shows an action's server error: editing any of its fields or submitting it again clears that
 * error, so an answer about an earlier attempt never stands beside the checks of a new one. It is a `PostForm`
 * (web/ui/form.tsx): the browser never sends it itself, so its values (a password, an address) never go in a URL.
 * @example <ActionForm action={save} onSubmit={submit}>…<FormAlert>{save.error}</FormAlert></ActionForm>
 */
export function ActionForm({ action, onSubmit, onChange, ...props }: Omit<FormHTMLAttributes<HTMLFormElement>, 'action' | 'method' | 'onSubmit'> & {
  action: Pick<ReturnType<typeof useAction>, 'error' | 'setError'> & Partial<Pick<ReturnType<typeof useAction>, 'fields' | 'setFields'>>;
  onSubmit: (e: FormEvent<HTMLFormElement>) => unknown;
}) {
  const w = useRbacWords();
  const clear = () => {
    if (action.error) action.setError(undefined);
    if (action.fields && Object.keys(action.fields).length) action.setFields?.({});
  };
  return (
    <PostForm
      noScript={w('needsScript')}
      {...props}
      onChange={(e) => {
        clear();
        onChange?.(e);
      }}
      onSubmit={(e) => {
        clear();
        return onSubmit(e);
      }}
    />
  );
}

export const hasText = (value: string) => richTextPlain(value).trim() !== '';

/**
 * The widget row's title (the page's h1 when it leads the page), subtitle and description over the screen's content,
 * in a centred card. `intro={false}` leaves out the subtitle and description: a screen whose row says what happens
 * while it waits ('One moment') drops that once it is done.
 */
export function WidgetCard({ row, fallbackTitle, children, footer, intro = true }: { row: Expanded; fallbackTitle: string; children: ReactNode; footer?: ReactNode; intro?: boolean }) {
  const t = useT();
  const Title = useTitleTag(row);
  const title = t(row.title) || fallbackTitle;
  const subtitle = intro ? t(row.subtitle) : '';
  const description = intro ? t(row.description) : '';
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

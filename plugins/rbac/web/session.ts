import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useBrowserQuery } from '../../../web/storefront/browser-query.js';
import { ApiError, createHttp } from '../../../runtime/client/index.js';
import { useHref } from '../../../web/storefront/context.js';
import { translate } from '../../../web/storefront/words.js';
import { isSafeLink } from '../../../engine/links.js';

/** where the refresh token lives (spec §4); the session token is the server's httpOnly cookie */
export const REFRESH_KEY = 'rbac.subject.refresh';
export const AUTH = '/api/rbac/subjects/authentication';

/** the screens the account widgets link to (spec §2) */
export const ROUTES = {
  selectMethod: '/rbac/subject/authentication/select-method',
  /** the email and password sign-in page (host seed) */
  login: '/rbac/subject/authentication/email-and-password/authentication',
  registration: '/rbac/subject/authentication/email-and-password/registration',
  forgotPassword: '/rbac/subject/authentication/email-and-password/forgot-password',
  /** the page a verification email links to, with ?code= */
  verifyEmail: '/rbac/subject/authentication/email-and-password/verify',
  settings: '/rbac/subjects/settings',
  profile: (slug: string) => `/rbac/subjects/${slug}`,
} as const;

/** same origin, credentials included (the session cookie travels with every call) */
export const http = createHttp({ baseUrl: '' });

export interface Identity {
  id: string;
  provider: 'email_and_password' | 'ethereum_virtual_machine' | 'telegram' | (string & {});
  account?: string | null;
  email?: string | null;
  /** when the email address was proven by the code sent to it; null until then */
  emailVerifiedAt?: string | null;
}
export interface Role {
  id: string;
  slug: string;
  title: string;
}
/** GET …/authentication/me: the subject with its identities and roles */
export interface Me {
  id: string;
  slug: string;
  adminTitle?: string;
  isAdmin: boolean;
  identities: Identity[];
  roles: Role[];
  /** a session with no login (authentication/init, or a registration of a taken address): a visitor to the screens */
  isAnonymous?: boolean;
}
export interface SignedIn {
  jwt: string;
  refresh: string;
}

/** browser side effects in one place, so tests can watch them */
export const browser = {
  /** opens an address that passes the link allow-list (engine/links.ts): a stored or answered url is never run as script */
  go(url: string) {
    if (!isSafeLink(url)) throw new Error('This address cannot be opened');
    window.location.assign(url);
  },
};

export const storedRefresh = () => localStorage.getItem(REFRESH_KEY);
export const storeRefresh = (refresh: string) => localStorage.setItem(REFRESH_KEY, refresh);
export const forgetRefresh = () => localStorage.removeItem(REFRESH_KEY);

/** '0x12345678…' → '0x1234…5678': the first 6 and last 4 characters (spec §2) */
export function shortAddress(address: string | null | undefined): string {
  if (!address) return '';
  return address.length <= 10 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** how an identity is shown: its email, a wallet's short address, or the Telegram account */
export function identityText(identity: Identity): string {
  if (identity.provider === 'email_and_password') return identity.email ?? identity.account ?? '';
  if (identity.provider === 'ethereum_virtual_machine') return shortAddress(identity.account);
  return identity.account ?? '';
}

/** what the subject is known by: the first email, else the first wallet, else its slug */
export function subjectName(me: Me): string {
  const email = me.identities.find((i) => i.provider === 'email_and_password' && i.email);
  const other = me.identities.find((i) => i.account);
  return email?.email ?? (other ? identityText(other) : me.slug);
}

/** the server's own message, without the '{status} | {statusText}' tail: what a form shows */
export function messageOf(e: unknown, fallback = 'Something went wrong'): string {
  const language = typeof document === 'undefined' ? 'en' : document.documentElement.lang || 'en';
  // no answer at all (offline, a timeout): said in the page's language, not as the browser's 'Failed to fetch'
  if (e instanceof ApiError && e.status === 0) return translate('storefront.unreachable', language);
  // the rate limit (runtime/http/rate-limit.ts: 'Too many attempts: try again in N seconds'), on any route
  if (e instanceof ApiError && e.status === 429) {
    const seconds = /in (\d+) seconds/.exec(e.message)?.[1] ?? '60';
    return translate('storefront.tooManyAttempts', language, { seconds });
  }
  if (e instanceof ApiError) {
    const own = e.message.split(' | ')[0];
    // an answer without a message of its own (a proxy's HTML error page): its first part is the bare status code
    if (own && own !== String(e.status)) return own;
    return `${translate('storefront.serverError', language)} (${e.status})`;
  }
  return e instanceof Error && e.message ? e.message : fallback;
}

const isUnauthorized = (e: unknown) => e instanceof ApiError && e.status === 401;

let refreshing: Promise<boolean> | undefined;
/**
 * Swaps the stored refresh token for a new session cookie and refresh token. One at a time: the
 * server rotates refresh tokens, and presenting an old one would end the session.
 * A refused refresh removes the token; a network failure keeps it and throws.
 */
export function refreshSession(): Promise<boolean> {
  const refresh = storedRefresh();
  if (!refresh) return Promise.resolve(false);
  refreshing ??= http
    .request<SignedIn>('POST', `${AUTH}/refresh`, { data: { refresh } })
    .then((r) => {
      storeRefresh(r.refresh);
      return true;
    })
    .catch((e) => {
      if (!(e instanceof ApiError)) throw e;
      forgetRefresh();
      return false;
    })
    .finally(() => (refreshing = undefined));
  return refreshing;
}

/**
 * The signed-in subject, or null (spec §4): `me`; when it says nobody (null, or a 401) while a refresh token
 * is stored, the session token has expired: refresh and ask again; a failed refresh removes the token and
 * goes home; no token means not signed in.
 */
export async function loadMe(home = '/'): Promise<Me | null> {
  // spec §4: without a refresh token the visitor is not signed in: nothing to ask
  if (!storedRefresh()) return null;
  try {
    const me = await http.request<Me | null>('GET', `${AUTH}/me`);
    // a session of no account is a visitor's: no account menu, no cart of its own (its routes are members')
    if (me) return me.isAnonymous ? null : me;
  } catch (e) {
    if (!isUnauthorized(e)) throw e;
  }
  if (!storedRefresh()) return null;
  if (!(await refreshSession())) {
    browser.go(home);
    return null;
  }
  try {
    const me = await http.request<Me | null>('GET', `${AUTH}/me`);
    return me && !me.isAnonymous ? me : null;
  } catch (e) {
    if (isUnauthorized(e)) return null;
    throw e;
  }
}

/** ends the session on the server (cookie and refresh token) and forgets the refresh token */
export async function logout(): Promise<void> {
  const refresh = storedRefresh();
  await http.request('POST', `${AUTH}/logout`, { data: refresh ? { refresh } : {} }).catch(() => undefined);
  forgetRefresh();
}

export const ME_KEY = ['rbac', 'me'] as const;

export type SubjectStatus = 'loading' | 'signed-in' | 'signed-out';

/**
 * The current subject for storefront components. 'loading' on the server and until the browser
 * knows (render a skeleton then), so server and client markup agree.
 * @example const { status, me, signOut } = useSubject();
 */
export function useSubject() {
  const qc = useQueryClient();
  const home = useHref()('/');
  // the server never knows the subject (its HTML holds no subject data) and never fetches: every widget that asks
  // renders 'loading' there, without a query observer per widget (the same answer useQuery gives before a fetch)
  const query = useBrowserQuery<Me | null>({ queryKey: ME_KEY, queryFn: () => loadMe(home), retry: false, staleTime: 60_000 });
  const status: SubjectStatus = query.isPending ? 'loading' : query.data ? 'signed-in' : 'signed-out';
  const signOut = useCallback(
    async (redirect: string | false = home) => {
      await logout();
      qc.setQueryData(ME_KEY, null);
      qc.removeQueries({ queryKey: ['rbac', 'is-authorized'] });
      if (redirect) browser.go(redirect);
    },
    [qc, home],
  );
  return { status, me: query.data ?? null, error: query.error, refetch: query.refetch, signOut };
}

/**
 * The signed-in subject when an action needs it now: the cached session if known, else it waits for
 * (or starts) the one session request; null for a visitor.
 * @example const subjectOf = useCurrentSubject(); const me = await subjectOf();
 */
export function useCurrentSubject() {
  const qc = useQueryClient();
  const home = useHref()('/');
  return useCallback(() => qc.fetchQuery({ queryKey: ME_KEY, queryFn: () => loadMe(home), staleTime: 60_000 }), [qc, home]);
}

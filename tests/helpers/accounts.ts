import { notification } from '../../plugins/notification/server/index.js';
import { verificationCode } from '../../plugins/rbac/server/verification.js';
import { createRbacPlugin, type RbacOptions } from '../../plugins/rbac/server/index.js';
import { bootApp, type TestApp } from './app.js';
import type { Plugin } from '../../runtime/plugin.js';
import type { TestDatabase } from './databases.js';

export const ADMIN_EMAIL = 'boss@example.com';
export const GENEROUS = { perAddress: { points: 10_000, duration: 60 }, perAccount: { points: 10_000, duration: 60 } };
const AUTH = '/api/rbac/subjects/authentication';
export const ROUTES = {
  me: `${AUTH}/me`,
  init: `${AUTH}/init`,
  refresh: `${AUTH}/refresh`,
  logout: `${AUTH}/logout`,
  isAuthorized: `${AUTH}/is-authorized`,
  login: `${AUTH}/email-and-password/authentication`,
  register: `${AUTH}/email-and-password/registration`,
  forgot: `${AUTH}/email-and-password/forgot-password`,
  reset: `${AUTH}/email-and-password/reset-password`,
  wallet: `${AUTH}/ethereum-virtual-machine`,
  telegram: `${AUTH}/telegram`,
};

/** the app with the accounts and notification modules, as a visitor would use it */
export async function bootAccounts(db: TestDatabase, opts: { env?: Record<string, string>; rbac?: RbacOptions; plugins?: Plugin[] } = {}) {
  const t = await bootApp(db, {
    plugins: [notification, createRbacPlugin({ limits: GENEROUS, ...opts.rbac }), ...(opts.plugins ?? [])],
    env: { ADMIN_EMAILS: ADMIN_EMAIL, ...opts.env },
  });
  const anon = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => t.call(method, path, body, { auth: false, headers });
  const as = (token: string) => (method: string, path: string, body?: unknown) => t.call(method, path, body, { token });
  async function register(login: string, password = 'password123') {
    const r = await anon('POST', ROUTES.register, { data: { login, password } });
    if (r.status !== 201) throw new Error(`registration failed: ${JSON.stringify(r.body)}`);
    const me = await as(r.body.data.jwt)('GET', ROUTES.me);
    if (!me.body.data?.identities?.length) throw new Error(`registration of ${login} made no account: the address has one already`);
    return { jwt: r.body.data.jwt as string, refresh: r.body.data.refresh as string, id: me.body.data.id as string, identityId: me.body.data.identities[0].id as string, cookie: r.headers.get('set-cookie') ?? '' };
  }
  /**
   * proves a registered address as its owner does, signed in (the code is the one the mail carries, made here with the
   * server's key rather than read from a mail server)
   */
  async function verify(s: { jwt: string; identityId: string }, email: string) {
    const code = verificationCode(t.config.rbacJwtSecret, s.identityId, email.toLowerCase());
    const r = await as(s.jwt)('POST', `${AUTH}/email-and-password/verify`, { data: { code } });
    if (r.status !== 200) throw new Error(`verification failed: ${JSON.stringify(r.body)}`);
  }
  /** a registered account whose address is proven: one that may add logins */
  async function registerVerified(login: string, password = 'password123') {
    const s = await register(login, password);
    await verify(s, login);
    return s;
  }
  return { ...t, anon, as, register, verify, registerVerified };
}

export type AccountsApp = TestApp & Awaited<ReturnType<typeof bootAccounts>>;

import type { Context } from 'hono';
import { hasSecretKey } from '../../../runtime/http/access.js';
import { sessionTokenOf } from '../../../runtime/http/session.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { Accounts } from './accounts.js';
import { verifyAccessToken } from './tokens.js';

export type Principal =
  | { kind: 'system' }
  | {
      kind: 'subject';
      subjectId: string;
      sessionId: string;
      roleIds: string[];
      roleSlugs: string[];
      admin: boolean;
      signedInAt: Date;
      /** the subject has a login (an identity); the subject of an anonymous session (authentication/init) has none */
      signedIn: boolean;
    }
  | { kind: 'anonymous' };

declare module 'hono' {
  interface ContextVariableMap {
    principal: Promise<Principal>;
  }
}

/**
 * Who is asking: the system (X-RBAC-SECRET-KEY), a subject with a live session (Bearer token or
 * the session cookie), or nobody. Resolved once per request; a revoked session counts as nobody.
 */
export function principalOf(c: Context, ctx: PluginContext, accounts: Accounts): Promise<Principal> {
  let p = c.get('principal');
  if (!p) {
    p = (async (): Promise<Principal> => {
      if (hasSecretKey(c, ctx.config.rbacSecretKey)) return { kind: 'system' };
      const token = sessionTokenOf(c);
      if (!token) return { kind: 'anonymous' };
      const claims = await verifyAccessToken(ctx.config.rbacJwtSecret, token);
      if (!claims?.sub || !claims.sid) return { kind: 'anonymous' };
      const session = await accounts.activeSession(claims.sid);
      if (!session || session.subjectId !== claims.sub) return { kind: 'anonymous' };
      const [roles, identities] = await Promise.all([accounts.rolesOf(session.subjectId), accounts.countIdentities(session.subjectId)]);
      return {
        kind: 'subject',
        subjectId: session.subjectId,
        sessionId: session.id,
        signedInAt: session.createdAt,
        roleIds: roles.map((r) => r.id as string),
        roleSlugs: roles.map((r) => r.slug as string),
        admin: await accounts.isAdmin(session.subjectId, roles),
        signedIn: identities > 0,
      };
    })();
    c.set('principal', p);
  }
  return p;
}

export const isPrivileged = (p: Principal) => p.kind === 'system' || (p.kind === 'subject' && p.admin);

/** the subject itself, an admin, or the system; 401 for nobody, 403 for another subject */
export async function requireSelf(c: Context, ctx: PluginContext, accounts: Accounts, subjectId: string): Promise<Principal> {
  const p = await principalOf(c, ctx, accounts);
  if (p.kind === 'anonymous') throw new HttpError(401, 'Not authorized');
  if (!isPrivileged(p) && !(p.kind === 'subject' && p.subjectId === subjectId)) throw new HttpError(403, 'Not authorized');
  return p;
}

/**
 * The signed-in subject a route acts for (its own account). The system key acts for no subject: it is told which
 * route names one (`instead`), rather than a 401 that reads as a wrong key.
 */
export async function requireSubject(c: Context, ctx: PluginContext, accounts: Accounts, instead?: string) {
  const p = await principalOf(c, ctx, accounts);
  if (p.kind === 'system') throw badRequest(`This route acts for the signed-in subject, and the system key is none${instead ? `: use ${instead}` : ''}`);
  if (p.kind !== 'subject') throw new HttpError(401, 'Not authorized');
  return p;
}

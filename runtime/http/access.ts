import { timingSafeEqual, createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Entity } from '../../engine/model.js';
import { HttpError } from './errors.js';
import { requestHeader } from './headers.js';

export type Operation = 'list' | 'count' | 'get' | 'create' | 'update' | 'delete' | 'findOrCreate' | 'bulkCreate' | 'bulkUpdate';
export const WRITES: readonly Operation[] = ['create', 'update', 'delete', 'findOrCreate', 'bulkCreate', 'bulkUpdate'];

/**
 * Who is asking, as the generic layer sees it: the system (X-RBAC-SECRET-KEY, or server code), a subject
 * with the slugs of its roles, or nobody. The accounts module resolves it; without accounts, a request
 * is the system with the secret key and anonymous without.
 */
export interface Caller {
  kind: 'system' | 'subject' | 'anonymous';
  subjectId?: string;
  /** slugs of the subject's roles */
  roles: readonly string[];
  /** the admin role (or a verified ADMIN_EMAILS address) */
  admin: boolean;
  /**
   * A subject with a login. The subject of an anonymous session (authentication/init: a cart before registering)
   * is a subject, owns its rows, but is not signed in (spec §4: a token lacking a login means not signed in), so
   * the built-in role 'signed-in' is not its.
   */
  signedIn?: boolean;
  /**
   * the id of the credential the caller came with (a session), when it can end before the caller goes: a write
   * naming it (its revocation) ends what outlives the request, such as an event stream (F14)
   */
  session?: string;
}

/** whether the caller holds the built-in role 'signed-in': a subject with a login */
export const isSignedIn = (c: Caller) => c.kind === 'subject' && c.signedIn === true;

export const SYSTEM: Caller = Object.freeze({ kind: 'system', roles: [], admin: true });
export const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous', roles: [], admin: false });

/** the system and admins may do everything */
export const isPrivileged = (c: Caller) => c.kind === 'system' || c.admin;

/** resolves the caller of a request (once per request: implementations cache it on the context) */
export type CallerOf = (c: Context) => Promise<Caller>;

/** whether the caller of a request may do METHOD on PATH by the route permissions (used for relation ends) */
export type Permits = (c: Context, method: string, path: string) => Promise<boolean>;

export interface AccessRequest {
  entity: Entity;
  operation: Operation;
  /** the row as it will be after the write (create, update), or as it is (get, delete) */
  row?: Record<string, unknown>;
}

/**
 * Decides whether a request may do an operation; throws 401 or 403 when not. The accounts
 * module replaces the default with role and permission checks.
 */
export type Authorizer = ((c: Context, request: AccessRequest) => Promise<void> | void) & {
  /**
   * Whether this authorizer allows an anonymous GET of any row of the entity, whatever the row and the request (and
   * so lets such reads be answered without asking it per request: runtime/http/fast-read.ts). An authorizer without
   * it is asked every time.
   */
  opensReads?: (entity: Entity) => boolean;
};

/** public entities are read by anyone: the rule both the default authorizer and the accounts module's keep */
export const publicReads = (entity: Entity) => entity.access === 'public';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** true when the request carries X-RBAC-SECRET-KEY equal to the configured key (compared in constant time) */
export function hasSecretKey(c: Context, secret: string): boolean {
  const given = requestHeader(c, 'x-rbac-secret-key');
  return !!given && timingSafeEqual(digest(given), digest(secret));
}

/**
 * Until accounts and roles land: public entities may be read by anyone; every write, and every
 * read of a private entity, needs the X-RBAC-SECRET-KEY header.
 */
export function secretKeyAuthorizer(secret: string): Authorizer {
  const secretKeyOnly: Authorizer = (c, { entity, operation }) => {
    if (!WRITES.includes(operation) && publicReads(entity)) return;
    if (!hasSecretKey(c, secret)) throw new HttpError(401, 'Not authorized');
  };
  secretKeyOnly.opensReads = publicReads;
  return secretKeyOnly;
}

export function secretKeyCaller(secret: string): CallerOf {
  return async (c) => (hasSecretKey(c, secret) ? SYSTEM : ANONYMOUS);
}

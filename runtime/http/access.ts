import { timingSafeEqual, createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Entity } from '../../engine/model.js';
import { HttpError } from './errors.js';

export type Operation = 'list' | 'count' | 'get' | 'create' | 'update' | 'delete' | 'findOrCreate' | 'bulkCreate' | 'bulkUpdate';
export const WRITES: readonly Operation[] = ['create', 'update', 'delete', 'findOrCreate', 'bulkCreate', 'bulkUpdate'];

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
export type Authorizer = (c: Context, request: AccessRequest) => Promise<void> | void;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** true when the request carries X-RBAC-SECRET-KEY equal to the configured key (compared in constant time) */
export function hasSecretKey(c: Context, secret: string): boolean {
  const given = c.req.header('x-rbac-secret-key');
  return !!given && timingSafeEqual(digest(given), digest(secret));
}

/**
 * Until accounts and roles land: public entities may be read by anyone; every write, and every
 * read of a private entity, needs the X-RBAC-SECRET-KEY header.
 */
export function secretKeyAuthorizer(secret: string): Authorizer {
  return function secretKeyOnly(c, { entity, operation }) {
    if (!WRITES.includes(operation) && entity.access === 'public') return;
    if (!hasSecretKey(c, secret)) throw new HttpError(401, 'Not authorized');
  };
}

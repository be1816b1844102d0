import { and, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { Drizzle } from '../../../runtime/db/index.js';
import { HttpError } from '../../../runtime/http/errors.js';
import { REFRESH_TTL_SECONDS, newRefreshSecret, parseRefreshToken, sameHash, sha256 } from './tokens.js';

type Row = Record<string, unknown>;
export type Provider = 'email_and_password' | 'ethereum_virtual_machine' | 'telegram';

/** subjects, their identities, roles and sessions: the data the accounts module works on */
export class Accounts {
  constructor(private ctx: PluginContext) {}

  private e = (id: string) => this.ctx.model.byId[id];
  private t = (id: string) => this.ctx.database.tables[id];
  private get db() {
    return this.ctx.database.db;
  }

  /** an identity with its secret fields, for the server's own checks only */
  async identityBy(provider: Provider, account: string, tx?: Drizzle): Promise<Row | undefined> {
    const t = this.t('rbac/identity');
    const [row] = await (tx ?? this.db).select().from(t).where(and(eq(t.provider, provider), eq(t.account, account))).limit(1);
    return row;
  }

  async identityByCodeHash(codeHash: string): Promise<Row | undefined> {
    const t = this.t('rbac/identity');
    const [row] = await this.db.select().from(t).where(eq(t.code, codeHash)).limit(1);
    return row;
  }

  async identityWithSecrets(identityId: string, tx?: Drizzle): Promise<Row | undefined> {
    const t = this.t('rbac/identity');
    const [row] = await (tx ?? this.db).select().from(t).where(eq(t.id, identityId)).limit(1);
    return row;
  }

  async subjectIdOfIdentity(identityId: string, tx?: Drizzle): Promise<string | undefined> {
    const t = this.t('rbac/subjects-to-identities');
    const [row] = await (tx ?? this.db).select({ subjectId: t.subjectId }).from(t).where(eq(t.identityId, identityId)).limit(1);
    return row?.subjectId;
  }

  async identitiesOf(subjectId: string): Promise<Row[]> {
    const rel = this.t('rbac/subjects-to-identities');
    const t = this.t('rbac/identity');
    return this.db.select(this.ctx.repo.columns(this.e('rbac/identity'))).from(t)
      .innerJoin(rel, eq(rel.identityId, t.id)).where(eq(rel.subjectId, subjectId)).orderBy(t.createdAt, t.id);
  }

  async rolesOf(subjectId: string): Promise<Row[]> {
    const rel = this.t('rbac/subjects-to-roles');
    const t = this.t('rbac/role');
    return this.db.select(this.ctx.repo.columns(this.e('rbac/role'))).from(t)
      .innerJoin(rel, eq(rel.roleId, t.id)).where(eq(rel.subjectId, subjectId)).orderBy(t.slug);
  }

  /**
   * admins: the admin role, or an email identity listed in ADMIN_EMAILS whose address is verified.
   * An address grants nothing until a code sent to it came back (emailVerifiedAt).
   */
  async isAdmin(subjectId: string, roles?: Row[]): Promise<boolean> {
    if ((roles ?? (await this.rolesOf(subjectId))).some((r) => r.slug === 'admin')) return true;
    if (!this.ctx.config.adminEmails.length) return false;
    return (await this.identitiesOf(subjectId)).some(
      (i) => i.provider === 'email_and_password' && typeof i.email === 'string' && i.emailVerifiedAt != null && this.ctx.config.adminEmails.includes(i.email.toLowerCase()),
    );
  }

  /** the subject's email and password identities with their secret fields, for the server's own checks */
  async passwordIdentitiesOf(subjectId: string, tx?: Drizzle): Promise<Row[]> {
    const db = tx ?? this.db;
    const rel = this.t('rbac/subjects-to-identities');
    const t = this.t('rbac/identity');
    const own = db.select({ id: rel.identityId }).from(rel).where(eq(rel.subjectId, subjectId));
    const rows: Row[] = await db.select().from(t).where(and(inArray(t.id, own), eq(t.provider, 'email_and_password'))).orderBy(t.createdAt, t.id);
    return rows.filter((r) => !!r.password);
  }

  /** the distinct email addresses of a subject's identities, for notices */
  async emailsOf(subjectId: string): Promise<string[]> {
    const emails = (await this.identitiesOf(subjectId)).map((i) => i.email).filter((e): e is string => typeof e === 'string' && !!e);
    return [...new Set(emails)];
  }

  /** forgets every outstanding reset code of a subject's identities: after a password or email change */
  async clearCodes(subjectId: string, tx: Drizzle) {
    const rel = this.t('rbac/subjects-to-identities');
    const t = this.t('rbac/identity');
    const ids = tx.select({ id: rel.identityId }).from(rel).where(eq(rel.subjectId, subjectId));
    await tx.update(t).set({ code: null, codeExpiresAt: null, updatedAt: new Date() }).where(inArray(t.id, ids));
  }

  async linkIdentity(tx: Drizzle, subjectId: string, identityId: string) {
    await this.ctx.repo.create(this.e('rbac/subjects-to-identities'), { subjectId, identityId }, tx);
  }

  /**
   * A new subject with its first identity and the roles open to registration — and only those:
   * nothing from a request body decides roles.
   */
  async register(identity: Row, tx: Drizzle, anonymousSubjectId?: string): Promise<{ subjectId: string; identityId: string }> {
    // an anonymous session's subject (from authentication/init) becomes the account: its cart stays with it
    const subject = anonymousSubjectId ? { id: anonymousSubjectId } : await this.ctx.repo.create(this.e('rbac/subject'), {}, tx);
    const created = await this.ctx.repo.create(this.e('rbac/identity'), identity, tx);
    await this.linkIdentity(tx, subject.id as string, created.id as string);
    const roles = this.t('rbac/role');
    const open = await tx.select({ id: roles.id }).from(roles).where(eq(roles.availableOnRegistration, true));
    for (const r of open) await this.ctx.repo.create(this.e('rbac/subjects-to-roles'), { subjectId: subject.id, roleId: r.id }, tx);
    return { subjectId: subject.id as string, identityId: created.id as string };
  }

  async assignRole(subjectId: string, slug: string, tx: Drizzle) {
    const roles = this.t('rbac/role');
    const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.slug, slug)).limit(1);
    if (!role) throw new Error(`no role '${slug}'`);
    const rel = this.t('rbac/subjects-to-roles');
    const [has] = await tx.select({ id: rel.id }).from(rel).where(and(eq(rel.subjectId, subjectId), eq(rel.roleId, role.id))).limit(1);
    if (!has) await this.ctx.repo.create(this.e('rbac/subjects-to-roles'), { subjectId, roleId: role.id }, tx);
  }

  // sessions

  /** a new session of the subject, signed in with `identityId` (none for an anonymous session): removing that login ends it */
  async createSession(subjectId: string, meta: { userAgent?: string; ip?: string; identityId?: string }, tx?: Drizzle): Promise<{ sessionId: string; refresh: string }> {
    const secret = newRefreshSecret();
    const row = await this.ctx.repo.create(this.e('rbac/session'), {
      subjectId,
      ...(meta.identityId && { identityId: meta.identityId }),
      refreshHash: sha256(secret),
      expiresAt: new Date(Date.now() + REFRESH_TTL_SECONDS * 1000).toISOString(),
      userAgent: meta.userAgent?.slice(0, 500),
      ip: meta.ip?.slice(0, 100),
    }, tx);
    return { sessionId: row.id as string, refresh: `${row.id}.${secret}` };
  }

  /** the session if it is neither revoked nor expired; createdAt is when its subject signed in */
  async activeSession(sessionId: string): Promise<{ id: string; subjectId: string; createdAt: Date } | undefined> {
    const t = this.t('rbac/session');
    const [row] = await this.db.select({ id: t.id, subjectId: t.subjectId, expiresAt: t.expiresAt, createdAt: t.createdAt }).from(t)
      .where(and(eq(t.id, sessionId), isNull(t.revokedAt))).limit(1);
    return row && row.expiresAt > new Date() ? row : undefined;
  }

  /**
   * Swaps a refresh token for a new one. Presenting a rotated (or any wrong) secret of a live
   * session means it was stolen or replayed: the whole session is revoked.
   */
  async rotate(token: unknown): Promise<{ sessionId: string; subjectId: string; refresh: string }> {
    const parsed = parseRefreshToken(token);
    if (!parsed) throw new HttpError(401, 'Not authorized');
    return this.ctx.database.transaction(async (tx) => {
      const t = this.t('rbac/session');
      const [s] = await tx.select().from(t).where(eq(t.id, parsed.sessionId)).limit(1);
      if (!s || s.revokedAt || s.expiresAt <= new Date()) throw new HttpError(401, 'Not authorized');
      const presented = sha256(parsed.secret);
      if (!sameHash(s.refreshHash, presented)) {
        await this.endSessions(tx, eq(t.id, s.id), 'refresh-reuse');
        return { reuse: true } as never;
      }
      const secret = newRefreshSecret();
      // conditional on the hash still being the one presented: two concurrent refreshes cannot both win
      const updated = await tx.update(t).set({ refreshHash: sha256(secret), previousRefreshHash: presented, lastUsedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(t.id, s.id), eq(t.refreshHash, presented))).returning({ id: t.id });
      if (!updated.length) throw new HttpError(401, 'Not authorized');
      return { sessionId: s.id, subjectId: s.subjectId, refresh: `${s.id}.${secret}` };
    }).then((r) => {
      if ((r as { reuse?: boolean }).reuse) throw new HttpError(401, 'Not authorized');
      return r;
    });
  }

  /**
   * Ends the live sessions `where` picks, each through the repository: its hooks run and, once committed, every
   * process hears of it (an open event stream of that session closes). Answers the ended sessions' ids.
   */
  async endSessions(tx: Drizzle, where: SQL, reason: string): Promise<string[]> {
    const t = this.t('rbac/session');
    const live: { id: string }[] = await tx.select({ id: t.id }).from(t).where(and(where, isNull(t.revokedAt)));
    const at = new Date().toISOString();
    for (const { id } of live) await this.ctx.repo.update(this.e('rbac/session'), id, { revokedAt: at, revokedReason: reason }, tx);
    return live.map((s) => s.id);
  }

  async revoke(sessionId: string, reason: string) {
    await this.ctx.database.transaction((tx) => this.endSessions(tx, eq(this.t('rbac/session').id, sessionId), reason));
  }

  /**
   * Ends the session a whole refresh token belongs to: the secret's hash must match (constant time).
   * A session id alone, or a wrong or rotated secret, ends nothing. Returns whether it ended one.
   */
  async revokeByRefresh(token: unknown, reason: string): Promise<boolean> {
    const parsed = parseRefreshToken(token);
    if (!parsed) return false;
    const t = this.t('rbac/session');
    const [s] = await this.db.select({ id: t.id, refreshHash: t.refreshHash }).from(t)
      .where(and(eq(t.id, parsed.sessionId), isNull(t.revokedAt))).limit(1);
    const presented = sha256(parsed.secret);
    if (!s || !sameHash(s.refreshHash, presented)) return false;
    await this.revoke(s.id, reason);
    return true;
  }

  /** ends every session of a subject (but the one named): password change and reset */
  async revokeAll(subjectId: string, reason: string, tx: Drizzle, except?: string) {
    const t = this.t('rbac/session');
    return this.endSessions(tx, and(eq(t.subjectId, subjectId), ...(except ? [ne(t.id, except)] : []))!, reason);
  }

  /**
   * Ends the sessions a login started, once it is no longer a login of the subject (removed or unlinked): its access
   * and refresh tokens stop at once. Sessions made before sessions recorded their login (no identityId) end too: which
   * login made them is unknown.
   */
  async endSessionsOfLogin(tx: Drizzle, subjectId: string, identityId: string) {
    const t = this.t('rbac/session');
    return this.endSessions(tx, and(eq(t.subjectId, subjectId), or(eq(t.identityId, identityId), isNull(t.identityId)))!, 'login-removed');
  }

  // proving an address

  /** whether the subject holds an email login and none of its addresses was ever proven (a claim, not an account) */
  async onlyUnprovenEmails(subjectId: string, tx?: Drizzle): Promise<boolean> {
    const db = tx ?? this.db;
    const rel = this.t('rbac/subjects-to-identities');
    const t = this.t('rbac/identity');
    const emails: { verified: Date | null }[] = await db.select({ verified: t.emailVerifiedAt }).from(t)
      .innerJoin(rel, eq(rel.identityId, t.id)).where(and(eq(rel.subjectId, subjectId), eq(t.provider, 'email_and_password')));
    return emails.length > 0 && emails.every((e) => e.verified == null);
  }

  /**
   * The holder of an address proves it for the first time (a reset code or admin:create): until now the account was
   * whoever registered the address, maybe not its owner, who may have added logins of their own. Every other login of
   * the subject is removed (an identity linked to no other subject is deleted) and every session ends, in `tx`.
   * Answers the removed logins, for the notice to the proven address.
   */
  async claimAddress(tx: Drizzle, subjectId: string, identityId: string): Promise<{ ended: number; removed: Row[] }> {
    const rel = this.t('rbac/subjects-to-identities');
    const t = this.t('rbac/identity');
    const others: { linkId: string; identityId: string }[] = await tx.select({ linkId: rel.id, identityId: rel.identityId }).from(rel)
      .where(and(eq(rel.subjectId, subjectId), ne(rel.identityId, identityId)));
    const removed: Row[] = [];
    for (const other of others) {
      const [row] = await tx.select({ id: t.id, provider: t.provider, account: t.account, email: t.email }).from(t).where(eq(t.id, other.identityId)).limit(1);
      if (row) removed.push(row);
      await this.ctx.repo.delete(this.e('rbac/subjects-to-identities'), other.linkId, tx);
      const [shared] = await tx.select({ id: rel.id }).from(rel).where(eq(rel.identityId, other.identityId)).limit(1);
      if (!shared && row) await this.ctx.repo.delete(this.e('rbac/identity'), other.identityId, tx);
    }
    const ended = await this.revokeAll(subjectId, 'address-proven', tx);
    return { ended: ended.length, removed };
  }

  async countIdentities(subjectId: string): Promise<number> {
    const rel = this.t('rbac/subjects-to-identities');
    const [r] = await this.db.select({ n: sql<number>`count(*)` }).from(rel).where(eq(rel.subjectId, subjectId));
    return Number(r.n);
  }

  async permissionsFor(method: string): Promise<{ route: string; roleIds: (string | null)[] }[]> {
    const p = this.t('rbac/permission');
    const rel = this.t('rbac/roles-to-permissions');
    const rows: { id: string; route: string; roleId: string | null }[] = await this.db
      .select({ id: p.id, route: p.route, roleId: rel.roleId }).from(p)
      .leftJoin(rel, eq(rel.permissionId, p.id))
      .where(and(eq(p.type, 'HTTP'), inArray(p.method, [method, '*'])));
    const byId = new Map<string, { route: string; roleIds: (string | null)[] }>();
    for (const r of rows) {
      const entry = byId.get(r.id) ?? { route: r.route, roleIds: [] };
      entry.roleIds.push(r.roleId);
      byId.set(r.id, entry);
    }
    return [...byId.values()];
  }
}

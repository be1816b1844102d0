import type { Context } from 'hono';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Entity, Field, Model } from '../../engine/model.js';
import { SERVER_FIELDS } from '../../engine/json-schema.js';
import type { Database, Drizzle } from '../db/index.js';
import { HttpError, badRequest, type Cause } from '../http/errors.js';
import { isPrivileged, isSignedIn, type Caller, type Permits } from '../http/access.js';

type Row = Record<string, unknown>;

const SUBJECT = 'rbac/subject';
const forbidden = (message = 'Not authorized', causes?: Cause[]) => new HttpError(403, message, causes);

/**
 * What a caller may do with rows and fields, read from the model alone: the entity's `owner` declaration
 * (owner scoping) and each field's `access` (who reads, who writes). The generic CRUD routes pass every
 * request through it; the route permissions (who may call which route) are the authorizer's.
 *
 * The system key and admins pass everything. For a subject, a row of an owned entity must be its own —
 * before and after a write — lists of private owned entities hold only its own rows, a relation row needs
 * the right to write both ends, and fields are read and written only as their `access` says.
 */
export class Policy {
  /** per entity, the fields whose read is restricted (fast path: most entities have none) */
  private restricted = new Map<string, Field[]>();

  constructor(
    private model: Model,
    private database: Database,
    private permits: Permits,
  ) {
    for (const e of model.entities) this.restricted.set(e.id, e.fields.filter((f) => f.access?.read && !f.secret));
  }

  private table(entity: Entity) {
    return this.database.tables[entity.id];
  }

  /**
   * SQL over the entity's table: the rows the subject owns (undefined when no subject owns rows of it). A chain of
   * owned entities (an owner field or owner relation naming an owned row) is one nested subquery per step.
   */
  ownedWhere(entity: Entity, subjectId: string, db: Drizzle = this.database.db): SQL | undefined {
    const o = entity.owner;
    if (!o) return undefined;
    const t = this.table(entity);
    if (o.kind === 'self') return eq(t.id, subjectId);
    if (o.kind === 'field') return this.ownerIs(t[o.field], o.target, subjectId, db);
    const rt = this.database.tables[o.relation];
    return inArray(t.id, db.select({ id: rt[o.targetField] }).from(rt).where(this.ownerIs(rt[o.subjectField], o.target, subjectId, db)));
  }

  /** a column naming an owner of kind `target`: the subject itself, or a row of an owned entity the subject owns */
  private ownerIs(column: unknown, target: string, subjectId: string, db: Drizzle): SQL {
    if (target === SUBJECT) return eq(column as never, subjectId);
    const parent = this.model.byId[target];
    const pt = this.table(parent);
    return inArray(column as never, db.select({ id: pt.id }).from(pt).where(this.ownedWhere(parent, subjectId, db)));
  }

  /** whether the subject owns the stored row with this id */
  async ownsStored(entity: Entity, subjectId: string, id: unknown, db: Drizzle = this.database.db): Promise<boolean> {
    const where = this.ownedWhere(entity, subjectId, db);
    if (!where || typeof id !== 'string') return false;
    const t = this.table(entity);
    const [found] = await db.select({ id: t.id }).from(t).where(and(eq(t.id, id), where)).limit(1);
    return !!found;
  }

  /** the ids among `ids` that the subject owns, in one query */
  private async ownedIds(entity: Entity, subjectId: string, ids: string[]): Promise<Set<string>> {
    const where = this.ownedWhere(entity, subjectId);
    if (!where || !ids.length) return new Set();
    const t = this.table(entity);
    const rows: { id: string }[] = await this.database.db.select({ id: t.id }).from(t).where(and(inArray(t.id, ids), where));
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Whether a row as it will be after a write belongs to the subject, judged on its values: its owner field
   * names the subject (or a row the subject owns). A row owned through a relation is its owner's once
   * linked: a new one is linked to its creator by the repository, an existing one must be linked already. A new
   * row owned through a relation to another owned entity (an invoice, through its payment intent) has no owner
   * the repository could link it to: a subject does not make one through the generic API.
   */
  private async ownsValues(entity: Entity, subjectId: string, row: Row, isNew: boolean, db: Drizzle): Promise<boolean> {
    const o = entity.owner;
    if (!o) return false;
    if (o.kind === 'self') return row.id === subjectId;
    if (o.kind === 'through') return isNew ? o.target === SUBJECT : this.ownsStored(entity, subjectId, row.id, db);
    const value = row[o.field];
    if (o.target === SUBJECT) return value === subjectId;
    return this.ownsStored(this.model.byId[o.target], subjectId, value, db);
  }

  /** whether the caller holds one of the roles (built-ins: public, signed-in, owner, admin, else a role slug) */
  private async holds(caller: Caller, roles: readonly string[], owner: () => Promise<boolean>): Promise<boolean> {
    if (isPrivileged(caller)) return true;
    for (const role of roles) {
      if (role === 'public') return true;
      if (caller.kind !== 'subject') continue;
      if ((role === 'signed-in' && isSignedIn(caller)) || caller.roles.includes(role)) return true;
      if (role === 'owner' && (await owner())) return true;
    }
    return false;
  }

  /**
   * Before validation of a create: a subject creating a row of an entity it owns through a reference to
   * rbac/subject gets that reference filled with itself when the body leaves it out.
   */
  prepareCreate(caller: Caller, entity: Entity, data: unknown): unknown {
    const o = entity.owner;
    if (caller.kind !== 'subject' || isPrivileged(caller) || o?.kind !== 'field' || o.target !== SUBJECT) return data;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
    const body = data as Row;
    return body[o.field] === undefined || body[o.field] === null ? { ...body, [o.field]: caller.subjectId } : body;
  }

  /** the subject that a new row should be linked to (entities owned through a relation to rbac/subject), if any */
  linkOwner(caller: Caller, entity: Entity): string | undefined {
    const o = entity.owner;
    return caller.kind === 'subject' && !isPrivileged(caller) && o?.kind === 'through' && o.target === SUBJECT ? caller.subjectId : undefined;
  }

  /**
   * Refuses a write the caller may not make, before anything is written:
   * - a field it may not write (403 naming each field: never silently dropped);
   * - a row of an owned entity that is not its own, before or after the write;
   * - a relation row whose ends it may not both write.
   * `body` holds the fields the request sets; `after` is the row as it will be; `before` the stored row.
   */
  async checkWrite(c: Context, caller: Caller, entity: Entity, op: 'create' | 'update' | 'delete', body: Row, after: Row, before?: Row, db: Drizzle = this.database.db) {
    // a secret field (a password's hash and salt, a reset code's hash, a refresh token's hash) is the server's own: the
    // API never writes one, for any caller (a value written here was stored as sent: a password in clear text that
    // no sign-in accepts); its module's routes do (the identity routes set a password)
    const secret = entity.fields.filter((f) => f.secret && f.name in body);
    if (secret.length) {
      const causes = secret.map((f) => ({ field: f.name, rule: 'secret', message: `${f.name} is secret: only the server writes it` }));
      throw badRequest(`${secret.map((f) => f.name).join(', ')} ${secret.length === 1 ? 'is' : 'are'} secret: only the server writes ${secret.length === 1 ? 'it' : 'them'}`, causes);
    }
    if (isPrivileged(caller)) return;
    const subjectId = caller.kind === 'subject' ? caller.subjectId! : undefined;
    let ownsBefore: boolean | undefined;
    const owner = async () => {
      if (!subjectId || !entity.owner) return false;
      if (before) return (ownsBefore ??= await this.ownsStored(entity, subjectId, before.id, db));
      return this.ownsValues(entity, subjectId, after, true, db);
    };

    const denied: Cause[] = [];
    for (const f of entity.fields) {
      if (!f.access?.write || !(f.name in body) || (SERVER_FIELDS as readonly string[]).includes(f.name)) continue;
      if (!(await this.holds(caller, f.access.write, owner))) denied.push({ field: f.name, rule: 'access', message: `${f.name} may not be written by this account` });
    }
    if (denied.length) throw forbidden(`Not authorized to write ${denied.map((d) => d.field).join(', ')}`, denied);

    if (entity.owner) {
      if (!subjectId) throw forbidden();
      if (before && !(await owner())) throw forbidden();
      if (op !== 'delete' && !(await this.ownsValues(entity, subjectId, after, !before, db))) throw forbidden();
    }

    if (entity.relation?.length === 2) {
      for (const name of entity.relation!) {
        const f = entity.fields.find((x) => x.name === name)!;
        const ids = new Set([after[name], before?.[name]].filter((v): v is string => typeof v === 'string'));
        for (const id of ids) if (!(await this.mayWriteRow(c, caller, this.model.byId[f.target!], id, db))) throw forbidden(`Not authorized to link ${f.target} ${id}`, [{ field: name, rule: 'access', message: `${name}: this account may not change that row` }]);
      }
    }
  }

  /** an end of a relation: its owner may, and for an entity no subject owns, whoever the route permissions let update it */
  private async mayWriteRow(c: Context, caller: Caller, entity: Entity, id: string, db: Drizzle): Promise<boolean> {
    if (isPrivileged(caller)) return true;
    if (entity.owner) return caller.kind === 'subject' && this.ownsStored(entity, caller.subjectId!, id, db);
    return this.permits(c, 'PATCH', `/api/${entity.module}/${entity.route}/${id}`);
  }

  /** a single read of a private owned entity must be of the caller's own row */
  async checkRead(caller: Caller, entity: Entity, row: Row) {
    if (isPrivileged(caller) || entity.access === 'public' || !entity.owner) return;
    if (caller.kind !== 'subject' || !(await this.ownsStored(entity, caller.subjectId!, row.id))) throw forbidden();
  }

  /** the condition a list, count or find-or-create adds: a subject sees only its own rows of a private owned entity */
  scope(caller: Caller, entity: Entity, forWrite = false): SQL | undefined {
    if (isPrivileged(caller) || !entity.owner || (!forWrite && entity.access === 'public')) return undefined;
    if (caller.kind !== 'subject') return sql`1 = 0`;
    return this.ownedWhere(entity, caller.subjectId!);
  }

  /**
   * Whether the caller may filter or order on a field: one it may read on every row. A field read by its
   * owner only is not (a filter would compare other subjects' values); the system and admins may on any.
   */
  filterable(caller: Caller): ((f: Field) => boolean) | undefined {
    if (isPrivileged(caller)) return undefined;
    return (f) => {
      const read = f.access?.read;
      if (!read) return true;
      return read.some((r) => r === 'public' || (r === 'signed-in' && isSignedIn(caller)) || (caller.kind === 'subject' && caller.roles.includes(r)));
    };
  }

  /**
   * Whether a read of the entity depends on who asks beyond the route permissions: a private owned entity
   * (scoped to the caller's rows) or one with fields of restricted read. Reads of the others skip resolving the
   * caller altogether: the hot path of public content.
   */
  readDependsOnCaller(entity: Entity): boolean {
    return !!this.restricted.get(entity.id)?.length || (!!entity.owner && entity.access === 'private');
  }

  /** whether a field is readable by everyone (page data, expansions and the page cache show only those) */
  static isPublicField(f: Field): boolean {
    return !f.secret && (!f.access?.read || f.access.read.includes('public'));
  }

  /** leaves out of each row the fields the caller may not read (in place; one query for 'owner' roles) */
  async project<T extends Row>(caller: Caller, entity: Entity, rows: T[]): Promise<T[]> {
    const fields = this.restricted.get(entity.id);
    if (!fields?.length || isPrivileged(caller) || !rows.length) return rows;
    const needsOwner = caller.kind === 'subject' && fields.some((f) => f.access!.read!.includes('owner'));
    const owned = needsOwner ? await this.ownedIds(entity, caller.subjectId!, rows.map((r) => r.id as string)) : new Set<string>();
    for (const row of rows) {
      for (const f of fields) {
        if (!(await this.holds(caller, f.access!.read!, async () => owned.has(row.id as string)))) delete row[f.name];
      }
    }
    return rows;
  }
}

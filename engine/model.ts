/** The in-memory model graph every generator and the runtime read. Built by `loadModel`. */

export type FieldKind =
  | 'text' | 'enum' | 'integer' | 'number' | 'boolean' | 'localized'
  | 'datetime' | 'date' | 'json' | 'file' | 'reference';

export interface FieldSpec {
  kind: FieldKind;
  title?: string;
  description?: string;
  required?: boolean;
  unique?: boolean;
  index?: boolean;
  secret?: boolean;
  default?: unknown;
  pattern?: string;
  /** the pattern in words, for its error ('must be <patternText>') */
  patternText?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  generate?: 'slug' | 'words';
  values?: string[];
  schema?: Record<string, unknown>;
  accept?: string[];
  to?: string;
  onDelete?: 'cascade' | 'set null' | 'restrict';
  /** who reads and who writes the field: role slugs plus the built-ins public, signed-in, owner, admin */
  access?: FieldAccess;
  /** a required text field accepts "" only with this */
  allowEmpty?: boolean;
  /** the field's previous name: the next migration renames the column instead of dropping it */
  renamedFrom?: string;
  /**
   * the value the rows already stored get when the field is added as, or made, required (not a default for
   * new rows); on a reference, `{ "match": { "<field>": <value> } }` picks the target row by a field of it
   */
  backfill?: unknown;
}

/** a reference's backfill rule: the target row whose fields equal these */
export interface BackfillMatch {
  match: Record<string, unknown>;
}
export const isBackfillMatch = (b: unknown): b is BackfillMatch =>
  !!b && typeof b === 'object' && !Array.isArray(b) && 'match' in b;

/** built-in access roles; any other name is the slug of an rbac/role */
export const BUILTIN_ROLES = ['public', 'signed-in', 'owner', 'admin'] as const;

export interface FieldAccess {
  read?: string[];
  write?: string[];
}

/**
 * How a subject owns a row, resolved by the loader from the manifest's `owner` (or the conventions):
 * - self: the row is the subject (rbac/subject);
 * - field: a reference field, to rbac/subject or to an entity that is itself owned (`target`);
 * - through: a relation entity linking this entity (targetField) to its owner (subjectField, pointing at `target`):
 *   rbac/subject, or an entity that is itself owned (an invoice is owned through its payment intent, which is owned
 *   through rbac/subjects-to-billing-module-payment-intents). Ownership follows the chain, as for a field.
 */
export type Ownership =
  | { kind: 'self' }
  | { kind: 'field'; field: string; target: string }
  | { kind: 'through'; relation: string; subjectField: string; targetField: string; target: string };

/** A manifest as written in schemas/<module>/<name>.json */
export interface Manifest {
  name: string;
  route: string;
  title: string;
  description?: string;
  access?: 'public' | 'private';
  owner?: string | { through: string };
  variants?: string[];
  relation?: string[];
  unique?: string[][];
  /** the entity's previous route: the next migration renames its table instead of dropping it */
  renamedFrom?: string;
  /** a relation whose far end's rows also carry it, with its near end, when expanded (an attribute shows its key) */
  expandBack?: boolean;
  fields: Record<string, FieldSpec>;
}

export interface Field extends FieldSpec {
  name: string;
  /** snake_case column name */
  column: string;
  /** true for fields the engine adds to every entity */
  common?: boolean;
  /** resolved target entity id for references */
  target?: string;
}

export interface Entity {
  /** '<module>/<name>' */
  id: string;
  module: string;
  name: string;
  route: string;
  title: string;
  description?: string;
  access: 'public' | 'private';
  /** how a subject owns a row; undefined when no subject owns rows of this entity */
  owner?: Ownership;
  variants: string[];
  defaultVariant: string;
  relation?: string[];
  /** a relation expanded from its far end too (manifest `expandBack`) */
  expandBack?: boolean;
  unique: string[][];
  /** common fields first, then the manifest's, in order */
  fields: Field[];
  table: string;
  /** the table of the entity's previous route (manifest `renamedFrom`): the next migration renames it to `table` */
  renamedFromTable?: string;
  /** path of the manifest, relative to the schemas folder */
  file: string;
}

export interface Model {
  languages: string[];
  defaultLanguage: string;
  modules: string[];
  entities: Entity[];
  byId: Record<string, Entity>;
}

export function fieldOf(entity: Entity, name: string): Field | undefined {
  return entity.fields.find((f) => f.name === name);
}

export const snake = (s: string) => s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()).replace(/-/g, '_');
export const camel = (s: string) => s.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const pascal = (s: string) => camel(s).replace(/^./, (c) => c.toUpperCase());

/** the TypeScript name of an entity's row type, e.g. EcommerceProduct (the create type adds 'Create') */
export const typeName = (e: { module: string; name: string }) => pascal(e.module) + pascal(e.name);
/** the exported name of an entity's drizzle table: module in camelCase + route in PascalCase */
export const tableVar = (e: { module: string; route: string }) => camel(e.module) + pascal(e.route);

/**
 * Entities by id, in an object with no prototype: an id taken from a request ('__proto__', 'constructor') finds
 * nothing rather than Object.prototype's members.
 */
export function entitiesById(entities: Entity[]): Record<string, Entity> {
  return Object.assign(Object.create(null) as Record<string, Entity>, Object.fromEntries(entities.map((e) => [e.id, e])));
}

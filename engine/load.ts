import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv } from 'ajv';
import type { Entity, Field, FieldSpec, Manifest, Model, Ownership } from './model.js';
import { camel, entitiesById, isBackfillMatch, snake, tableVar, typeName } from './model.js';
import { addValueFormats, fieldTypes, UUID_RE } from './fields/index.js';
import { locate, parseErrorLocation } from './json-source.js';
import { reservedModule, reservedRoute } from './reserved.js';

export interface ManifestProblem {
  /** the manifest, relative to the schemas folder */
  file: string;
  /** JSON pointer into the manifest */
  path: string;
  rule: string;
  message: string;
  /** 1-based line and column of what `path` names in the file, when the file can be read */
  line?: number;
  column?: number;
}

const where = (p: ManifestProblem) => p.file + (p.line ? `:${p.line}:${p.column}` : '');

/** Thrown when one or more manifests are invalid; its message lists every problem. */
export class ManifestError extends Error {
  constructor(public problems: ManifestProblem[]) {
    super(
      'Invalid manifest' + (problems.length > 1 ? 's' : '') + ':\n' +
        problems.map((p) => `  ${where(p)} at ${p.path || '/'}: ${p.message} (rule: ${p.rule})`).join('\n'),
    );
    this.name = 'ManifestError';
  }
}

/**
 * Gives each problem the line and column of its JSON path in its file (files relative to `schemasDir`).
 * Problems that already have one, or whose file is gone, are left as they are.
 */
export function locateProblems(problems: ManifestProblem[], schemasDir: string, texts = new Map<string, string>()): ManifestProblem[] {
  return problems.map((p) => {
    if (p.line) return p;
    let text = texts.get(p.file);
    if (text === undefined) {
      const path = join(schemasDir, p.file);
      if (!p.file.endsWith('.json') || !existsSync(path)) return p;
      text = readFileSync(path, 'utf8');
      texts.set(p.file, text);
    }
    return { ...p, ...locate(text, p.path) };
  });
}

const META_DIR = 'meta';
const LOCALIZED_UNIQUE =
  'a localized field cannot be unique: its value is a map of languages, so uniqueness would compare whole maps ' +
  '(two rows could share a title in one language, and adding a language would make equal titles differ); ' +
  'make a text field (such as a slug) unique instead';

function commonFields(variants: string[], defaultVariant: string, relation: boolean): Field[] {
  const fields: Field[] = [
    { name: 'id', column: 'id', kind: 'text', format: 'uuid', common: true },
    { name: 'createdAt', column: 'created_at', kind: 'datetime', common: true },
    { name: 'updatedAt', column: 'updated_at', kind: 'datetime', common: true },
    { name: 'variant', column: 'variant', kind: 'enum', values: variants, default: defaultVariant, common: true },
    { name: 'className', column: 'class_name', kind: 'text', common: true },
  ];
  if (relation) fields.push({ name: 'orderIndex', column: 'order_index', kind: 'integer', default: 0, common: true });
  return fields;
}

function tableName(module: string, route: string) {
  return snake(module) + '_' + snake(route);
}

/** the table an entity's `renamedFrom` names: a route of its own module, or `<module>/<route>` (moved from another module) */
function renamedTable(module: string, renamedFrom: string) {
  const [from, route] = renamedFrom.includes('/') ? renamedFrom.split('/') : [module, renamedFrom];
  return tableName(from, route);
}

const COMMON_NAMES = ['id', 'createdAt', 'updatedAt', 'variant', 'className', 'orderIndex'];

/**
 * Reads every manifest under `schemasDir/<module>/*.json`, validates it against
 * `schemasDir/meta/manifest.schema.json` and the rules the meta-schema cannot say (bounds, defaults that break
 * their own field's rules, references, reserved routes, type-name collisions, ownership), and builds the model
 * graph. Every problem of every manifest is reported at once, each with file, line and column, JSON path and
 * rule; a manifest that is itself broken is reported once, not again by every manifest that refers to it.
 * @example const model = loadModel('schemas'); model.byId['ecommerce/product'].fields
 */
export function loadModel(schemasDir: string): Model {
  const { model, problems } = checkManifests(schemasDir);
  if (problems.length) throw new ManifestError(problems);
  return model;
}

/**
 * loadModel's checks, answering every problem (located) instead of throwing, with the model of the manifests that
 * have none: an entity whose manifest has a problem, or that refers to one left out (or broken), is left out, so
 * that codegen can still check the change the others make (a drop, a required field without a default) and report
 * it with the manifests' problems, in one batch.
 */
export function checkManifests(schemasDir: string): { model: Model; problems: ManifestProblem[] } {
  const metaSchema = JSON.parse(readFileSync(join(schemasDir, META_DIR, 'manifest.schema.json'), 'utf8'));
  const langs = JSON.parse(readFileSync(join(schemasDir, META_DIR, 'languages.json'), 'utf8')) as {
    languages: string[];
    default: string;
  };
  const ajv = new Ajv({ allErrors: true, strict: false, formats: { regex: isRegex, uuid: UUID_RE } });
  const validate = ajv.compile<Manifest>(metaSchema);
  const problems: ManifestProblem[] = [];
  const texts = new Map<string, string>();
  const manifests: { module: string; file: string; manifest: Manifest }[] = [];
  /** ids of manifests that exist but are broken: references to them are not reported again */
  const broken = new Set<string>();

  const modules = readdirSync(schemasDir)
    .filter((d) => d !== META_DIR && !d.startsWith('.') && statSync(join(schemasDir, d)).isDirectory())
    .sort();
  for (const module of modules) {
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(module)) {
      problems.push({ file: module + '/', path: '', rule: 'module-name', message: 'module folder names are kebab-case' });
      continue;
    }
    const files = readdirSync(join(schemasDir, module)).filter((f) => f.endsWith('.json')).sort();
    const reserved = reservedModule(module);
    if (reserved) {
      problems.push({
        file: module + '/', path: '', rule: 'reserved',
        message: `the module name '${module}' would shadow ${reserved.path}, which the platform serves (${reserved.by}); choose another folder name`,
      });
      for (const f of files) broken.add(`${module}/${f.replace(/\.json$/, '')}`);
      continue;
    }
    for (const fileName of files) {
      const file = relative(schemasDir, join(schemasDir, module, fileName)).split('\\').join('/');
      const id = `${module}/${fileName.replace(/\.json$/, '')}`;
      const text = readFileSync(join(schemasDir, module, fileName), 'utf8');
      texts.set(file, text);
      let manifest: Manifest;
      try {
        manifest = JSON.parse(text);
      } catch (e) {
        broken.add(id);
        problems.push({ file, path: '', rule: 'json', message: 'not valid JSON: ' + (e as Error).message, ...parseErrorLocation(text, e as Error) });
        continue;
      }
      if (!validate(manifest)) {
        broken.add(id);
        for (const err of validate.errors ?? []) {
          if (err.keyword === 'if') continue; // the failing branch is reported by its own errors
          if (err.keyword === 'propertyNames') continue; // reported by the nested error, which names the property
          if (err.keyword === 'oneOf' && validate.errors!.some((x) => x !== err && x.instancePath.startsWith(err.instancePath))) continue;
          if (err.propertyName !== undefined) {
            const common = err.keyword === 'not' && COMMON_NAMES.includes(err.propertyName);
            const builtIn = err.keyword === 'not' && !common;
            problems.push({
              file, path: `${err.instancePath}/${err.propertyName}`, rule: common ? 'common-field' : builtIn ? 'reserved' : 'field-name',
              message: common
                ? `'${err.propertyName}' is a common field the engine adds to every entity; leave it out`
                : builtIn
                  ? `'${err.propertyName}' is a name every JavaScript object already has (Object.prototype): a row without it would read the built-in; choose another name`
                  : `field names are camelCase starting with a lower-case letter`,
            });
            continue;
          }
          const extra = err.keyword === 'additionalProperties' ? (err.params as { additionalProperty: string }).additionalProperty : undefined;
          const fieldKind = /^\/fields\/[^/]+$/.test(err.instancePath)
            ? (manifest.fields?.[err.instancePath.split('/')[2]] as FieldSpec | undefined)?.kind
            : undefined;
          if (extra === 'unique' && fieldKind === 'localized') {
            problems.push({ file, path: `${err.instancePath}/unique`, rule: 'unique-localized', message: LOCALIZED_UNIQUE });
            continue;
          }
          const detail = extra !== undefined
            ? `unknown keyword '${extra}'` + (fieldKind ? ` for a ${fieldKind} field` : '')
            : err.keyword === 'enum'
              ? `${err.message}: ${(err.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`
              : err.message ?? 'invalid';
          problems.push({ file, path: extra !== undefined ? `${err.instancePath}/${extra}` : err.instancePath, rule: err.keyword, message: detail });
        }
        continue;
      }
      if (fileName !== manifest.name + '.json') {
        problems.push({ file, path: '/name', rule: 'file-name', message: `name '${manifest.name}' must match the file name` });
      }
      manifests.push({ module, file, manifest });
    }
  }

  const ids = new Set(manifests.map((m) => `${m.module}/${m.manifest.name}`));
  const routes = new Map<string, string>();
  const entities: Entity[] = [];
  const languageModel = { languages: langs.languages } as Model;
  for (const { module, file, manifest } of manifests) {
    const id = `${module}/${manifest.name}`;
    const routeKey = `${module}/${manifest.route}`;
    if (routes.has(routeKey)) {
      problems.push({ file, path: '/route', rule: 'unique-route', message: `route '${manifest.route}' is also used by ${routes.get(routeKey)}` });
    }
    routes.set(routeKey, file);
    const reserved = reservedRoute(module, manifest.route, id);
    if (reserved) {
      problems.push({
        file, path: '/route', rule: 'reserved',
        message: `/api/${module}/${manifest.route} would shadow routes the platform serves there (${reserved.by})` +
          (reserved.entity ? `; only ${reserved.entity} may use it` : '') + '; choose another route',
      });
    }
    const variants = manifest.variants ?? ['default'];
    const defaultVariant = variants.includes('default') ? 'default' : variants[0];
    const fields = commonFields(variants, defaultVariant, !!manifest.relation);
    for (const [name, spec] of Object.entries(manifest.fields)) {
      const field: Field = { ...(spec as FieldSpec), name, column: snake(name) };
      // language maps default to an empty map (spec: "default empty")
      if (field.kind === 'localized' && field.default === undefined) field.default = {};
      const at = `/fields/${name}`;
      const problem = (path: string, rule: string, message: string) => problems.push({ file, path: at + path, rule, message });
      if (field.kind === 'reference') {
        const target = field.to!.includes('/') ? field.to! : `${module}/${field.to}`;
        if (!ids.has(target) && !broken.has(target)) {
          const moved = [...ids].filter((id) => id.endsWith('/' + target.split('/')[1]));
          problem('/to', 'reference', `no entity '${target}' (expected a manifest schemas/${target}.json)` + (moved.length ? `; did it move? ${moved.map((id) => `"to": "${id}"`).join(' or ')}` : ''));
        }
        field.target = target;
        field.onDelete ??= 'cascade';
        if (field.onDelete === 'set null' && field.required) {
          problem('/onDelete', 'reference', "a required reference cannot use onDelete 'set null'");
        }
      }
      if (field.pattern !== undefined && !isRegex(field.pattern)) {
        problem('/pattern', 'format', 'not a valid regular expression');
      }
      if (field.minimum !== undefined && field.maximum !== undefined && field.minimum > field.maximum) {
        problem('/minimum', 'bounds', `minimum ${field.minimum} is greater than maximum ${field.maximum}: no value could be stored`);
      }
      if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
        problem('/minLength', 'bounds', `minLength ${field.minLength} is greater than maxLength ${field.maxLength}: no value could be stored`);
      }
      if (field.kind === 'enum' && field.default !== undefined && !field.values!.includes(field.default as string)) {
        problem('/default', 'enum', `default '${field.default}' is not one of ${field.values!.join(', ')}`);
      } else {
        for (const key of ['default', 'backfill'] as const) {
          if (field[key] === undefined || (key === 'backfill' && isBackfillMatch(field[key]))) continue;
          const broke = valueProblem(field, languageModel, field[key]);
          if (broke) problem('/' + key, key, `${key} ${JSON.stringify(field[key])} breaks the field's own rules: ${broke}`);
        }
      }
      if (field.secret && (field.unique || field.generate)) {
        problem('/secret', 'secret', 'a secret field cannot be unique or generated');
      }
      if (field.renamedFrom !== undefined) {
        if (field.renamedFrom === name) problem('/renamedFrom', 'rename', 'a field cannot be renamed from its own name');
        else if (COMMON_NAMES.includes(field.renamedFrom)) problem('/renamedFrom', 'rename', `'${field.renamedFrom}' is a common field; it cannot be renamed`);
        else if (manifest.fields[field.renamedFrom]) problem('/renamedFrom', 'rename', `'${field.renamedFrom}' is still declared: a rename leaves the old name behind`);
      }
      if (isBackfillMatch(field.backfill) && field.kind === 'reference' && ids.has(field.target!)) {
        const target = manifests.find((m) => `${m.module}/${m.manifest.name}` === field.target)!.manifest;
        for (const key of Object.keys(field.backfill.match)) {
          if (!target.fields[key] && !['id', 'variant', 'className'].includes(key)) {
            problem(`/backfill/match/${key}`, 'backfill', `${field.target} has no field '${key}' to match on`);
          }
        }
      }
      fields.push(field);
    }
    for (const [i, rel] of (manifest.relation ?? []).entries()) {
      const f = fields.find((x) => x.name === rel);
      if (!f || f.kind !== 'reference') {
        problems.push({ file, path: `/relation/${i}`, rule: 'relation', message: `'${rel}' must name a reference field of this manifest` });
      }
    }
    for (const [i, group] of (manifest.unique ?? []).entries()) {
      for (const [j, name] of group.entries()) {
        const f = fields.find((x) => x.name === name);
        if (!f) problems.push({ file, path: `/unique/${i}/${j}`, rule: 'unique', message: `no field '${name}'` });
        else if (f.kind === 'localized') problems.push({ file, path: `/unique/${i}/${j}`, rule: 'unique-localized', message: LOCALIZED_UNIQUE });
      }
    }
    for (const f of fields) {
      if (f.format === 'link' && f.kind !== 'text') problems.push({ file, path: `/fields/${f.name}/format`, rule: 'format', message: "format 'link' is for text fields" });
    }
    entities.push({
      id, module, name: manifest.name, route: manifest.route, title: manifest.title,
      description: manifest.description, access: manifest.access ?? 'public',
      variants, defaultVariant, relation: manifest.relation, unique: manifest.unique ?? [],
      fields, table: tableName(module, manifest.route), file,
      ...(manifest.renamedFrom !== undefined && { renamedFromTable: renamedTable(module, manifest.renamedFrom) }),
      ...(manifest.expandBack && { expandBack: true }),
    });
    if (manifest.expandBack && manifest.relation?.length !== 2) problems.push({ file, path: '/expandBack', rule: 'relation', message: 'expandBack is for a relation entity with two ends' });
    if (manifest.renamedFrom !== undefined && renamedTable(module, manifest.renamedFrom) === tableName(module, manifest.route)) {
      problems.push({
        file, path: '/renamedFrom', rule: 'rename',
        message: `an entity cannot be renamed from its own route; if its manifest moved here from another module's folder, name that module: "renamedFrom": "<old module>/${manifest.route}"`,
      });
    }
  }
  const tables = new Map<string, string>();
  for (const e of entities) {
    if (tables.has(e.table)) {
      problems.push({ file: e.file, path: '/route', rule: 'unique-table', message: `table '${e.table}' is also made by ${tables.get(e.table)}` });
    }
    tables.set(e.table, e.file);
  }
  for (const e of entities) {
    if (e.renamedFromTable && e.renamedFromTable !== e.table && tables.has(e.renamedFromTable)) {
      problems.push({ file: e.file, path: '/renamedFrom', rule: 'rename', message: `table '${e.renamedFromTable}' is still made by ${tables.get(e.renamedFromTable)}: a rename leaves the old route behind` });
    }
  }
  problems.push(...nameCollisions(entities));
  const byId = new Map(entities.map((e) => [e.id, e]));
  for (const { module, file, manifest } of manifests) {
    const entity = byId.get(`${module}/${manifest.name}`)!;
    const through = typeof manifest.owner === 'object' ? manifest.owner.through : undefined;
    entity.owner = resolveOwner(entity, manifest.owner, byId, (path, message) => {
      if (!(through && broken.has(through))) problems.push({ file, path, rule: 'owner', message });
    });
  }
  for (const { module, file, manifest } of manifests) {
    const entity = byId.get(`${module}/${manifest.name}`)!;
    checkOwnerChain(entity, byId, broken, (message) => problems.push({ file, path: '/owner', rule: 'owner', message }));
    for (const f of entity.fields) {
      const roles = [...(f.access?.read ?? []), ...(f.access?.write ?? [])];
      if (roles.includes('owner') && !entity.owner) {
        problems.push({ file, path: `/fields/${f.name}/access`, rule: 'owner', message: `'owner' needs an entity a subject owns: declare "owner" (a reference to rbac/subject, or {"through": <relation>})` });
      }
      if (f.secret && f.access?.read) problems.push({ file, path: `/fields/${f.name}/access/read`, rule: 'secret', message: 'a secret field is never read: leave out access.read' });
    }
  }
  const failed = new Set(problems.map((p) => p.file));
  const out = new Set([...broken, ...entities.filter((e) => failed.has(e.file)).map((e) => e.id)]);
  for (let more = true; more; ) {
    more = false;
    for (const e of entities) {
      if (out.has(e.id) || !e.fields.some((f) => f.target && (out.has(f.target) || !byId.has(f.target)))) continue;
      out.add(e.id);
      more = true;
    }
  }
  const kept = entities.filter((e) => !out.has(e.id)).sort((a, b) => a.id.localeCompare(b.id));
  return {
    problems: locateProblems(problems, schemasDir, texts),
    model: {
      languages: langs.languages,
      defaultLanguage: langs.default,
      modules: [...new Set(kept.map((e) => e.module))].sort(),
      entities: kept,
      byId: entitiesById(kept),
    },
  };
}

let valueAjv: Ajv | undefined;
/** why a value breaks its field's own rules (the JSON Schema a body's value is checked with), or undefined */
function valueProblem(field: Field, model: Model, value: unknown): string | undefined {
  if (!valueAjv) {
    valueAjv = new Ajv({ allErrors: true, strict: false });
    addValueFormats(valueAjv);
  }
  let validate;
  try {
    validate = valueAjv.compile((fieldTypes[field.kind].jsonSchema as (f: Field, m: Model) => object)(field, model));
  } catch (e) {
    return `its schema does not compile (${(e as Error).message})`;
  }
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .filter((e) => e.keyword !== 'propertyNames' && e.keyword !== 'if')
    .map((e) => (e.keyword === 'enum' && e.propertyName !== undefined
      ? `'${e.propertyName}' is not a configured language (${model.languages.join(', ')})`
      : `${e.instancePath ? e.instancePath.slice(1) + ' ' : ''}${e.message}`))
    .join('; ');
}

/**
 * Names the generated code declares per entity (row and create types, drizzle table, client method) must be
 * unique: `blog/comment` and `blog/comment-create` would both declare BlogCommentCreate.
 */
function nameCollisions(entities: Entity[]): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const seen = new Map<string, { entity: Entity; what: string }>();
  for (const e of [...entities].sort((a, b) => a.id.localeCompare(b.id))) {
    const names: [string, string][] = [
      [typeName(e), 'its row type'],
      [typeName(e) + 'Create', 'its create type'],
      ['table:' + tableVar(e), 'its drizzle table'],
      ['client:' + camel(e.module) + '.' + camel(e.route), 'its client method'],
    ];
    for (const [name, what] of names) {
      const other = seen.get(name);
      if (other && other.entity !== e) {
        const shown = name.replace(/^(table|client):/, '');
        problems.push({
          file: e.file, path: name.startsWith('client:') || name.startsWith('table:') ? '/route' : '/name', rule: 'name-collision',
          message: `${e.id} would declare ${shown} (${what}), which ${other.entity.id} already declares (${other.what}); rename one of them`,
        });
      } else if (!other) seen.set(name, { entity: e, what });
    }
  }
  return problems;
}

const SUBJECT = 'rbac/subject';

/**
 * The manifest's `owner`, or the conventions: rbac/subject owns itself; a row with a reference to
 * rbac/subject is owned through it; an entity an `rbac/subjects-to-…` relation links to is owned through it.
 */
function resolveOwner(entity: Entity, declared: Manifest['owner'], byId: Map<string, Entity>, problem: (path: string, message: string) => void): Ownership | undefined {
  if (typeof declared === 'string') {
    const f = entity.fields.find((x) => x.name === declared);
    if (f?.kind !== 'reference') return problem('/owner', `'${declared}' must name a reference field`), undefined;
    return { kind: 'field', field: f.name, target: f.target! };
  }
  if (declared) {
    // a relation with two ends: one is this entity, the other its owner (rbac/subject, or an owned entity: the chain
    // is checked once every entity's owner is resolved, checkOwnerChain)
    const rel = byId.get(declared.through);
    const ends = rel?.relation?.length === 2 ? rel.relation.map((n) => rel.fields.find((f) => f.name === n)) : undefined;
    const target = ends?.find((f) => f?.target === entity.id);
    const owner = ends?.find((f) => f && f !== target);
    if (!rel || !target || !owner?.target) {
      return problem('/owner/through', `'${declared.through}' must be a relation entity linking ${entity.id} to ${SUBJECT} or to an entity a subject owns`), undefined;
    }
    if (owner.target === entity.id) return problem('/owner/through', `'${declared.through}' links ${entity.id} to itself: a row cannot be owned through a row of its own kind`), undefined;
    return { kind: 'through', relation: rel.id, subjectField: owner.name, targetField: target.name, target: owner.target };
  }
  if (entity.id === SUBJECT) return { kind: 'self' };
  const direct = entity.fields.find((f) => f.kind === 'reference' && f.target === SUBJECT);
  if (direct) return { kind: 'field', field: direct.name, target: SUBJECT };
  for (const rel of byId.values()) {
    if (rel.module !== 'rbac' || !rel.name.startsWith('subjects-to-') || rel.relation?.length !== 2) continue;
    const [a, b] = rel.relation.map((n) => rel.fields.find((f) => f.name === n)!);
    if (a?.target === SUBJECT && b?.target === entity.id && entity.id !== SUBJECT) return { kind: 'through', relation: rel.id, subjectField: a.name, targetField: b.name, target: SUBJECT };
  }
  return undefined;
}

/**
 * An owner field or owner relation must lead to rbac/subject through owned entities, without a cycle: each step is
 * the entity its owner field points at, or its owner relation's other end.
 */
function checkOwnerChain(entity: Entity, byId: Map<string, Entity>, broken: Set<string>, problem: (message: string) => void) {
  const seen = new Set<string>();
  let at: Entity | undefined = entity;
  for (let o = stepOf(at); at && o; o = stepOf(at)) {
    if (seen.has(at.id)) return problem(`the owner chain of ${entity.id} loops through ${at.id}`);
    seen.add(at.id);
    if (broken.has(o.target)) return; // reported in its own file
    const next = byId.get(o.target);
    if (!next?.owner) {
      return problem(
        o.kind === 'field'
          ? `'${o.field}' points at ${o.target}, which no subject owns: point it at ${SUBJECT} or at an owned entity`
          : `'${o.relation}' links ${at.id} to ${o.target}, which no subject owns: link it to ${SUBJECT} or to an owned entity`,
      );
    }
    at = next;
  }
}

/** the next step of an owner chain: an owner field or relation that leads to another owned entity, not to rbac/subject */
const stepOf = (e: Entity | undefined) => (e?.owner && e.owner.kind !== 'self' && e.owner.target !== SUBJECT ? e.owner : undefined);

function isRegex(s: string) {
  try {
    new RegExp(s, 'u');
    return true;
  } catch {
    return false;
  }
}

export const schemasDirExists = (dir: string) => existsSync(join(dir, META_DIR, 'manifest.schema.json'));

import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv } from 'ajv';
import type { Entity, Field, FieldSpec, Manifest, Model, Ownership } from './model.js';
import { snake } from './model.js';

export interface ManifestProblem {
  file: string;
  /** JSON pointer into the manifest */
  path: string;
  rule: string;
  message: string;
}

/** Thrown when one or more manifests are invalid; its message lists every problem. */
export class ManifestError extends Error {
  constructor(public problems: ManifestProblem[]) {
    super(
      'Invalid manifest' + (problems.length > 1 ? 's' : '') + ':\n' +
        problems.map((p) => `  ${p.file} at ${p.path || '/'}: ${p.message} (rule: ${p.rule})`).join('\n'),
    );
    this.name = 'ManifestError';
  }
}

const META_DIR = 'meta';

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

/**
 * Reads every manifest under `schemasDir/<module>/*.json`, validates it against
 * `schemasDir/meta/manifest.schema.json`, and builds the model graph.
 * @example const model = loadModel('schemas'); model.byId['ecommerce/product'].fields
 */
export function loadModel(schemasDir: string): Model {
  const metaSchema = JSON.parse(readFileSync(join(schemasDir, META_DIR, 'manifest.schema.json'), 'utf8'));
  const langs = JSON.parse(readFileSync(join(schemasDir, META_DIR, 'languages.json'), 'utf8')) as {
    languages: string[];
    default: string;
  };
  const ajv = new Ajv({ allErrors: true, strict: false, formats: { regex: isRegex } });
  const validate = ajv.compile<Manifest>(metaSchema);
  const problems: ManifestProblem[] = [];
  const manifests: { module: string; file: string; manifest: Manifest }[] = [];

  const modules = readdirSync(schemasDir)
    .filter((d) => d !== META_DIR && !d.startsWith('.') && statSync(join(schemasDir, d)).isDirectory())
    .sort();
  for (const module of modules) {
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(module)) {
      problems.push({ file: module + '/', path: '', rule: 'module-name', message: 'module folder names are kebab-case' });
      continue;
    }
    for (const fileName of readdirSync(join(schemasDir, module)).filter((f) => f.endsWith('.json')).sort()) {
      const file = relative(schemasDir, join(schemasDir, module, fileName));
      let manifest: Manifest;
      try {
        manifest = JSON.parse(readFileSync(join(schemasDir, module, fileName), 'utf8'));
      } catch (e) {
        problems.push({ file, path: '', rule: 'json', message: 'not valid JSON: ' + (e as Error).message });
        continue;
      }
      if (!validate(manifest)) {
        for (const err of validate.errors ?? []) {
          if (err.keyword === 'if') continue; // the failing branch is reported by its own errors
          if (err.keyword === 'propertyNames') continue; // reported by the nested error, which names the property
          if (err.propertyName !== undefined) {
            const common = err.keyword === 'not';
            problems.push({
              file, path: `${err.instancePath}/${err.propertyName}`, rule: common ? 'common-field' : 'field-name',
              message: common
                ? `'${err.propertyName}' is a common field the engine adds to every entity; leave it out`
                : `field names are camelCase starting with a lower-case letter`,
            });
            continue;
          }
          const detail = err.keyword === 'additionalProperties'
            ? `unknown keyword '${(err.params as { additionalProperty: string }).additionalProperty}'`
            : err.keyword === 'enum'
              ? `${err.message}: ${(err.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`
              : err.message ?? 'invalid';
          problems.push({ file, path: err.instancePath, rule: err.keyword, message: detail });
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
  for (const { module, file, manifest } of manifests) {
    const id = `${module}/${manifest.name}`;
    const routeKey = `${module}/${manifest.route}`;
    if (routes.has(routeKey)) {
      problems.push({ file, path: '/route', rule: 'unique-route', message: `route '${manifest.route}' is also used by ${routes.get(routeKey)}` });
    }
    routes.set(routeKey, file);
    const variants = manifest.variants ?? ['default'];
    const defaultVariant = variants.includes('default') ? 'default' : variants[0];
    const fields = commonFields(variants, defaultVariant, !!manifest.relation);
    for (const [name, spec] of Object.entries(manifest.fields)) {
      const field: Field = { ...(spec as FieldSpec), name, column: snake(name) };
      // language maps default to an empty map (spec: "default empty")
      if (field.kind === 'localized' && field.default === undefined) field.default = {};
      const at = `/fields/${name}`;
      if (field.kind === 'reference') {
        const target = field.to!.includes('/') ? field.to! : `${module}/${field.to}`;
        if (!ids.has(target)) {
          problems.push({ file, path: at + '/to', rule: 'reference', message: `no entity '${target}' (expected a manifest schemas/${target}.json)` });
        }
        field.target = target;
        field.onDelete ??= 'cascade';
        if (field.onDelete === 'set null' && field.required) {
          problems.push({ file, path: at + '/onDelete', rule: 'reference', message: "a required reference cannot use onDelete 'set null'" });
        }
      }
      if (field.pattern !== undefined && !isRegex(field.pattern)) {
        problems.push({ file, path: at + '/pattern', rule: 'format', message: 'not a valid regular expression' });
      }
      if (field.kind === 'enum' && field.default !== undefined && !field.values!.includes(field.default as string)) {
        problems.push({ file, path: at + '/default', rule: 'enum', message: `default '${field.default}' is not one of ${field.values!.join(', ')}` });
      }
      if (field.secret && (field.unique || field.generate)) {
        problems.push({ file, path: at + '/secret', rule: 'secret', message: 'a secret field cannot be unique or generated' });
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
      for (const name of group) {
        if (!fields.some((x) => x.name === name)) {
          problems.push({ file, path: `/unique/${i}`, rule: 'unique', message: `no field '${name}'` });
        }
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
    });
  }
  const tables = new Map<string, string>();
  for (const e of entities) {
    if (tables.has(e.table)) {
      problems.push({ file: e.file, path: '/route', rule: 'unique-table', message: `table '${e.table}' is also made by ${tables.get(e.table)}` });
    }
    tables.set(e.table, e.file);
  }
  const byId = new Map(entities.map((e) => [e.id, e]));
  for (const { module, file, manifest } of manifests) {
    const entity = byId.get(`${module}/${manifest.name}`)!;
    entity.owner = resolveOwner(entity, manifest.owner, byId, (path, message) => problems.push({ file, path, rule: 'owner', message }));
  }
  for (const { module, file, manifest } of manifests) {
    const entity = byId.get(`${module}/${manifest.name}`)!;
    checkOwnerChain(entity, byId, (message) => problems.push({ file, path: '/owner', rule: 'owner', message }));
    for (const f of entity.fields) {
      const roles = [...(f.access?.read ?? []), ...(f.access?.write ?? [])];
      if (roles.includes('owner') && !entity.owner) {
        problems.push({ file, path: `/fields/${f.name}/access`, rule: 'owner', message: `'owner' needs an entity a subject owns: declare "owner" (a reference to rbac/subject, or {"through": <relation>})` });
      }
      if (f.secret && f.access?.read) problems.push({ file, path: `/fields/${f.name}/access/read`, rule: 'secret', message: 'a secret field is never read: leave out access.read' });
    }
  }
  if (problems.length) throw new ManifestError(problems);

  entities.sort((a, b) => a.id.localeCompare(b.id));
  return {
    languages: langs.languages,
    defaultLanguage: langs.default,
    modules: [...new Set(entities.map((e) => e.module))].sort(),
    entities,
    byId: Object.fromEntries(entities.map((e) => [e.id, e])),
  };
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
    const rel = byId.get(declared.through);
    const ends = rel?.relation?.map((n) => rel.fields.find((f) => f.name === n));
    const subject = ends?.find((f) => f?.target === SUBJECT);
    const target = ends?.find((f) => f !== subject && f?.target === entity.id);
    if (!rel || !subject || !target) {
      return problem('/owner/through', `'${declared.through}' must be a relation entity linking ${SUBJECT} to ${entity.id}`), undefined;
    }
    return { kind: 'through', relation: rel.id, subjectField: subject.name, targetField: target.name };
  }
  if (entity.id === SUBJECT) return { kind: 'self' };
  const direct = entity.fields.find((f) => f.kind === 'reference' && f.target === SUBJECT);
  if (direct) return { kind: 'field', field: direct.name, target: SUBJECT };
  for (const rel of byId.values()) {
    if (rel.module !== 'rbac' || !rel.name.startsWith('subjects-to-') || rel.relation?.length !== 2) continue;
    const [a, b] = rel.relation.map((n) => rel.fields.find((f) => f.name === n)!);
    if (a?.target === SUBJECT && b?.target === entity.id && entity.id !== SUBJECT) return { kind: 'through', relation: rel.id, subjectField: a.name, targetField: b.name };
  }
  return undefined;
}

/** an owner field must lead to rbac/subject through owned entities, without a cycle */
function checkOwnerChain(entity: Entity, byId: Map<string, Entity>, problem: (message: string) => void) {
  const seen = new Set<string>();
  let at: Entity | undefined = entity;
  while (at?.owner?.kind === 'field' && at.owner.target !== SUBJECT) {
    if (seen.has(at.id)) return problem(`the owner chain of ${entity.id} loops through ${at.id}`);
    seen.add(at.id);
    const next = byId.get(at.owner.target);
    if (!next?.owner) return problem(`'${at.owner.field}' points at ${at.owner.target}, which no subject owns: point it at ${SUBJECT} or at an owned entity`);
    at = next;
  }
}

function isRegex(s: string) {
  try {
    new RegExp(s, 'u');
    return true;
  } catch {
    return false;
  }
}

export const schemasDirExists = (dir: string) => existsSync(join(dir, META_DIR, 'manifest.schema.json'));

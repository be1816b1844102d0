import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv } from 'ajv';
import type { Entity, Field, FieldSpec, Manifest, Model } from './model.js';
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
    if (manifest.owner && fields.find((x) => x.name === manifest.owner)?.kind !== 'reference') {
      problems.push({ file, path: '/owner', rule: 'owner', message: `'${manifest.owner}' must name a reference field` });
    }
    entities.push({
      id, module, name: manifest.name, route: manifest.route, title: manifest.title,
      description: manifest.description, access: manifest.access ?? 'public', owner: manifest.owner,
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

function isRegex(s: string) {
  try {
    new RegExp(s, 'u');
    return true;
  } catch {
    return false;
  }
}

export const schemasDirExists = (dir: string) => existsSync(join(dir, META_DIR, 'manifest.schema.json'));

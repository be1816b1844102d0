import type { Entity, Field, Model } from '../model.js';
import { tableVar } from '../model.js';
import { fieldTypes, type Dialect } from '../fields/index.js';
import { HEADER, identifier } from './header.js';

export { tableVar };

/** whether a column is NOT NULL: ids, common fields but className, and required, defaulted or generated fields */
export const notNull = (f: Field) =>
  f.name === 'id' || (f.common && f.name !== 'className') || !!f.required || f.default !== undefined || !!f.generate;

function columnSource(entity: Entity, f: Field, dialect: Dialect, model: Model): string {
  let src = fieldTypes[f.kind].column(f, dialect);
  if (f.name === 'id') return (dialect === 'pg' ? `uuid('id')` : `text('id')`) + '.primaryKey()';
  if (notNull(f)) src += '.notNull()';
  if (f.default !== undefined) src += `.default(${JSON.stringify(f.default)})`;
  if (f.kind === 'reference') {
    const target = model.byId[f.target!];
    const type = dialect === 'pg' ? 'AnyPgColumn' : 'AnySQLiteColumn';
    src += `.references((): ${type} => ${tableVar(target)}.id, { onDelete: '${f.onDelete}' })`;
  }
  return src;
}

/** indexes: the default order, unique fields (incl. slugs), references, fields marked index, composite uniques */
export function indexesOf(entity: Entity) {
  const out: { name: string; unique: boolean; fields: string[] }[] = [];
  // the default order of a list (createdAt, then id), served by one index without a sort
  out.push({ name: identifier(`${entity.table}_created_at_id_idx`), unique: false, fields: ['createdAt', 'id'] });
  for (const f of entity.fields) {
    if (f.name === 'id' || f.name === 'createdAt') continue;
    if (f.unique) out.push({ name: identifier(`${entity.table}_${f.column}_key`), unique: true, fields: [f.name] });
    else if (f.kind === 'reference' || f.index || f.name === 'slug')
      out.push({ name: identifier(`${entity.table}_${f.column}_idx`), unique: false, fields: [f.name] });
  }
  for (const group of entity.unique) {
    const cols = group.map((n) => entity.fields.find((f) => f.name === n)!.column).join('_');
    out.push({ name: identifier(`${entity.table}_${cols}_key`), unique: true, fields: group });
  }
  return out;
}

/** drizzle-orm table definitions for every entity, as TypeScript source */
export function generateDrizzle(model: Model, dialect: Dialect): string {
  const core = dialect === 'pg' ? 'pg-core' : 'sqlite-core';
  const tableFn = dialect === 'pg' ? 'pgTable' : 'sqliteTable';
  const imports = new Set<string>([tableFn, 'index', 'uniqueIndex', dialect === 'pg' ? 'AnyPgColumn' : 'AnySQLiteColumn']);
  imports.add(dialect === 'pg' ? 'uuid' : 'text');
  const blocks: string[] = [];
  for (const e of model.entities) {
    for (const f of e.fields) fieldTypes[f.kind].imports[dialect].forEach((i) => imports.add(i));
    const cols = e.fields.map((f) => `    ${f.name}: ${columnSource(e, f, dialect, model)},`).join('\n');
    const idx = indexesOf(e)
      .map((i) => `    ${i.unique ? 'uniqueIndex' : 'index'}('${i.name}').on(${i.fields.map((n) => 't.' + n).join(', ')}),`)
      .join('\n');
    blocks.push(
      `/** ${e.title} (${e.file}) */\nexport const ${tableVar(e)} = ${tableFn}(\n  '${e.table}',\n  {\n${cols}\n  },\n  (t) => [\n${idx}\n  ],\n);\n`,
    );
  }
  const typeImports = [...imports].filter((i) => i.startsWith('Any'));
  const valueImports = [...imports].filter((i) => !i.startsWith('Any')).sort();
  return (
    HEADER() +
    `import { ${valueImports.join(', ')} } from 'drizzle-orm/${core}';\n` +
    `import type { ${typeImports.join(', ')} } from 'drizzle-orm/${core}';\n\n` +
    blocks.join('\n') +
    `\n/** every table, keyed by entity id */\nexport const tables = {\n${model.entities.map((e) => `  '${e.id}': ${tableVar(e)},`).join('\n')}\n} as const;\n`
  );
}

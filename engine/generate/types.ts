import { compile } from 'json-schema-to-typescript';
import type { Model } from '../model.js';
import { typeName } from '../model.js';
import { bodySchema, rowSchema } from '../json-schema.js';
import { HEADER } from './header.js';

export { typeName };

/** field titles would make json-schema-to-typescript emit one named type per field */
function untitled(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(untitled);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'title' || k === '$id') continue;
    out[k] = k === 'properties'
      ? Object.fromEntries(Object.entries(v as object).map(([name, s]) => [name, untitled(s)]))
      : untitled(v);
  }
  return out;
}

/** TypeScript types of every entity's row and create body, through json-schema-to-typescript */
export async function generateTypes(model: Model): Promise<string> {
  const opts = { bannerComment: '', format: false, additionalProperties: false, declareExternallyReferenced: false } as const;
  const parts: string[] = [];
  for (const e of model.entities) {
    const name = typeName(e);
    const row = { ...(untitled(rowSchema(e, model)) as object), title: name, description: `${e.title}: a row of ${e.id}` };
    const create = { ...(untitled(bodySchema(e, model, 'create')) as object), title: name + 'Create' };
    parts.push(await compile(row as never, name, opts), await compile(create as never, name + 'Create', opts));
  }
  const index = model.entities.map((e) => `  '${e.id}': { row: ${typeName(e)}; create: ${typeName(e)}Create };`).join('\n');
  return HEADER() + '/* eslint-disable */\n\n' + parts.join('\n') + `\n/** row and create-body types keyed by entity id */\nexport interface Entities {\n${index}\n}\n`;
}

import { randomUUID } from 'node:crypto';
import type { Entity, Field, Model } from '../../engine/model.js';

let counter = 0;

/** a value for a text field that passes its pattern, format and length rules */
function textValue(f: Field): string {
  const n = ++counter;
  if (f.format === 'email') return `sample${n}@example.com`;
  if (f.format === 'uri') return `https://example.com/${n}`;
  if (f.format === 'uuid') return randomUUID();
  const candidates = [`sample-${n}`, `/sample-${n}`, `/sample-${n}/[blog.article.slug]`, 'en', '*/5 * * * *', `Sample ${n}`];
  const re = f.pattern ? new RegExp(f.pattern, 'u') : undefined;
  const found = candidates.find((c) => (!re || re.test(c)) && c.length >= (f.minLength ?? 0) && c.length <= (f.maxLength ?? Infinity));
  if (!found) throw new Error(`no sample value for ${f.name} with pattern ${f.pattern}`);
  return found;
}

export function sampleValue(f: Field): unknown {
  switch (f.kind) {
    case 'text': return textValue(f);
    case 'enum': return f.values![f.values!.length - 1];
    case 'integer': return Math.max(f.minimum ?? 1, 1);
    case 'number': return Math.max(f.minimum ?? 1.5, 1.5);
    case 'boolean': return true;
    case 'localized': return { en: `Sample ${++counter}`, ru: `Образец ${counter}` };
    case 'datetime': return new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)).toISOString();
    case 'date': return '2026-01-02';
    case 'json': return { sample: true, n: ++counter };
    case 'file': return `https://example.com/file-${++counter}.png`;
    case 'reference': throw new Error('references are made by sampleRow');
  }
}

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export const pathOf = (e: Entity) => `/api/${e.module}/${e.route}`;

/**
 * A full valid create body for an entity, every field set; the rows its references need are
 * created first through the API.
 */
export async function sampleRow(model: Model, entity: Entity, call: Call): Promise<Record<string, unknown>> {
  const row: Record<string, unknown> = { variant: entity.variants[entity.variants.length - 1], className: 'sample' };
  if (entity.relation) row.orderIndex = 2;
  for (const f of entity.fields) {
    // a secret field is the server's own: the API never writes one
    if (f.common || f.secret) continue;
    if (f.kind === 'reference') {
      const target = model.byId[f.target!];
      const res = await call('POST', pathOf(target), { data: await sampleRow(model, target, call) });
      if (res.status !== 201) throw new Error(`could not create ${target.id}: ${JSON.stringify(res.body)}`);
      row[f.name] = res.body.data.id;
    } else row[f.name] = sampleValue(f);
  }
  return row;
}

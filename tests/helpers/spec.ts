import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from '../../engine/codegen.js';

/**
 * Reads the product spec (../shared/spec/platform-spec.md beside the repository, or SPEC_PATH) into the lists
 * the conformance test walks. The lists come from the document: what is written here is only how its prose
 * is read — which sentence heads name which entity, and the few phrases that describe a variant in words.
 */
/**
 * The spec: SPEC_PATH, else the shared one beside the repository, else the copy kept in docs/spec/ (a clone on
 * its own, a new user's machine). The copy is refreshed from ../shared when it changes.
 */
export const SPEC_PATH =
  process.env.SPEC_PATH ?? [resolve(ROOT, '..', 'shared', 'spec', 'platform-spec.md'), join(ROOT, 'docs', 'spec', 'platform-spec.md')].find((p) => existsSync(p)) ?? join(ROOT, 'docs', 'spec', 'platform-spec.md');

export function readSpec(): string {
  if (!existsSync(SPEC_PATH)) throw new Error(`The spec is not at ${SPEC_PATH}: set SPEC_PATH to platform-spec.md`);
  return readFileSync(SPEC_PATH, 'utf8');
}

/** the lines of one '### <title>' (or '## <title>') section, without the heading */
export function section(spec: string, title: string): string[] {
  const lines = spec.split('\n');
  const start = lines.findIndex((l) => /^#{2,3} /.test(l) && l.replace(/^#+ /, '').trim() === title);
  if (start < 0) throw new Error(`the spec has no section '${title}'`);
  const level = lines[start]!.indexOf(' ');
  const end = lines.findIndex((l, i) => i > start && /^#{2,3} /.test(l) && l.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

const withoutParentheses = (s: string) => {
  let out = s;
  while (/\([^()]*\)/.test(out)) out = out.replace(/\s*\([^()]*\)/g, '');
  return out;
};

/** 'opengraph title' → 'opengraphTitle', 'attribute key' → 'attribute-key' */
const camel = (s: string) => s.trim().split(/\s+/).map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('');
const kebab = (s: string) => s.trim().toLowerCase().split(/\s+/).join('-');

// ---------------------------------------------------------------- §2 widget variants

/**
 * Which entity each sentence head ('<head>: <list>', or a head without a colon) of 'Public widget variants'
 * lists variants of. Heads that describe rather than list (Slider, Header) map to nothing; a head with a colon
 * that is not in this table fails the test, so the spec cannot grow a list the test does not walk.
 */
export const VARIANT_HEADS: Record<string, string[]> = {
  'website-builder': ['website-builder/widget'],
  'blog/startup': ['blog/widget', 'startup/widget'],
  'crm widget': ['crm/widget'],
  'crm input': ['crm/input'],
  ecommerce: ['ecommerce/widget'],
  'Product also has': ['ecommerce/product'],
  feature: ['website-builder/feature'],
  'Social profile': ['social/profile'],
  rbac: ['rbac/widget'],
  'file-storage file': ['file-storage/file'],
  Buttons: ['website-builder/button'],
  'Slide variants': ['website-builder/slide'],
  Slider: [],
  Header: [],
};

/**
 * Variants the spec names in words, as the registry names them; null marks a clause that describes the one
 * before it. Every key must still occur in the spec (a stale entry fails the test).
 */
export const VARIANT_WORDS: Record<string, string | null> = {
  'forgot-password form': 'forgot-password',
  'logout action': 'logout',
  'overview with product list': 'subject-overview-ecommerce-module-product-list',
  'generate-template variants for opengraph image': 'generate-template-opengraph-image',
  'order receipt': 'generate-template-ecommerce-module-order-receipt',
  'product attachment': 'generate-template-ecommerce-module-product-attachment',
  'full-width banner with title and buttons': 'full-width-banner',
  'linking to the slide url if set': null,
  'or a plain container': 'plain-container',
};

export interface SpecVariant {
  /** '<module>/<entity>' */
  entity: string;
  /** as the spec writes it, `{product}` included: 'content-{product}-description' */
  variant: string;
  /** the words in the spec it was read from */
  source: string;
}

/** every variant the 'Public widget variants' section lists, with the entity it belongs to; `prose` are the sentences that list nothing */
export function specVariants(spec: string): { variants: SpecVariant[]; unknownHeads: string[]; prose: string[] } {
  const variants: SpecVariant[] = [];
  const unknownHeads: string[] = [];
  const prose: string[] = [];
  for (const line of section(spec, 'Public widget variants')) {
    if (!line.startsWith('- ')) continue;
    // sentences: '. ' ends one; a head is the text before ':' or a known head without one
    for (const sentence of withoutParentheses(line.slice(2)).split(/\.\s+|\.$/).map((s) => s.trim()).filter(Boolean)) {
      const colon = sentence.indexOf(':');
      const bare = Object.keys(VARIANT_HEADS).find((h) => sentence.startsWith(h + ' ') || sentence === h);
      const head = colon > 0 && !bare ? sentence.slice(0, colon).trim() : bare;
      if (!head) {
        prose.push(sentence);
        continue;
      }
      if (!(head in VARIANT_HEADS)) {
        unknownHeads.push(sentence);
        continue;
      }
      const entities = VARIANT_HEADS[head]!;
      if (!entities.length) continue;
      const list = colon > 0 && !bare ? sentence.slice(colon + 1) : sentence.slice(head.length);
      for (const raw of list.split(/[,;]|\s+plus\s+/).map((s) => s.trim()).filter(Boolean)) {
        const named = Object.hasOwn(VARIANT_WORDS, raw) ? VARIANT_WORDS[raw] : kebab(raw);
        if (named === null) continue;
        for (const entity of entities) variants.push({ entity, variant: named!, source: raw });
      }
    }
  }
  return { variants, unknownHeads, prose };
}

// ---------------------------------------------------------------- §3 entities and fields

/** which entities a row of the §3 table names: its words, read with the module the spec gives or implies */
export const ENTITY_NAMES: Record<string, string[] | 'every widget'> = {
  'widget (all modules)': 'every widget',
  'form (crm)': ['crm/form'],
  'input (crm)': ['crm/input'],
  product: ['ecommerce/product'],
  store: ['ecommerce/store'],
  category: ['ecommerce/category'],
  order: ['ecommerce/order'],
  'orders-to-products': ['ecommerce/orders-to-products'],
  attribute: ['ecommerce/attribute'],
  'attribute key': ['ecommerce/attribute-key'],
  currency: ['billing/currency'],
  identity: ['rbac/identity'],
  subject: ['rbac/subject'],
  role: ['rbac/role'],
  'social profile/widget': ['social/profile', 'social/widget'],
  'page (host)': ['host/page'],
  'metadata (host)': ['host/metadata'],
  layout: ['host/layout'],
  button: ['website-builder/button'],
  'buttons-array': ['website-builder/buttons-array'],
  slide: ['website-builder/slide'],
  'slider, feature, article, blog category': ['website-builder/slider', 'website-builder/feature', 'blog/article', 'blog/category'],
  logotype: ['website-builder/logotype'],
  file: ['file-storage/file'],
};

/** phrases of the fields column that are not one field name, and the fields they stand for */
export const FIELD_WORDS: Record<string, string[]> = {
  'common fields as widget': ['adminTitle', 'slug', 'title', 'subtitle', 'description', 'className'],
  'common fields': [],
  'slug pattern [a-z0-9-]+': ['slug'],
  'widget variant only default': [],
  'title required': ['title'],
};

export interface SpecField {
  name: string;
  /** the modules the spec limits it to, e.g. anchor (website-builder, ecommerce) */
  modules?: string[];
}

export interface SpecEntity {
  /** the words of the table row */
  name: string;
  /** model ids it names */
  ids: string[] | 'every widget';
  fields: SpecField[];
}

/** splits on the separators outside parentheses */
function splitOutside(s: string, separators: RegExp): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (depth === 0 && separators.test(ch)) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.map((x) => x.trim()).filter(Boolean);
}

/** 'opengraph title/description/url' → opengraphTitle, opengraphDescription, opengraphUrl */
function fieldNames(item: string): string[] {
  if (Object.hasOwn(FIELD_WORDS, item)) return FIELD_WORDS[item]!;
  const slash = /^(\w+)\s+([\w/]+)$/.exec(item);
  if (slash && slash[2]!.includes('/')) return slash[2]!.split('/').map((part) => camel(`${slash[1]} ${part}`));
  return [camel(item)];
}

/** the rows of the §3 table and the common fields every entity and relation has */
export function specEntities(spec: string): { entities: SpecEntity[]; common: string[]; relationCommon: string[]; relations: string[]; modules: string[]; unknownRows: string[] } {
  const lines = section(spec, '3. Entities and fields');
  const commonLine = lines.find((l) => l.startsWith('Common:'))!;
  const [all, rel] = withoutParentheses(commonLine.slice('Common:'.length)).split(';');
  const common = all!.split(',').map((s) => s.trim()).filter(Boolean);
  const relationCommon = [/relations add (\w+)/.exec(rel ?? '')![1]!];
  const moduleLine = lines.find((l) => l.startsWith('Module list:'))!;
  const moduleNames = moduleLine.slice('Module list:'.length).replace(/\.$/, '').split(',').map((s) => s.trim());
  const entities: SpecEntity[] = [];
  const unknownRows: string[] = [];
  for (const row of lines.filter((l) => l.startsWith('| ') && !l.startsWith('| Entity') && !l.startsWith('|---'))) {
    const [, name, fields] = row.split('|').map((s) => s.trim());
    if (!name || !Object.hasOwn(ENTITY_NAMES, name)) {
      unknownRows.push(row);
      continue;
    }
    const fieldsOf = (item: string): SpecField[] => {
      const inside = /\(([^()]*)\)/.exec(item)?.[1]?.split(',').map((m) => m.trim());
      const modules = inside?.every((m) => moduleNames.includes(m)) ? inside : undefined;
      return fieldNames(withoutParentheses(item).trim()).map((f) => ({ name: f, ...(modules && { modules }) }));
    };
    entities.push({ name, ids: ENTITY_NAMES[name]!, fields: splitOutside(fields!, /[,;]/).flatMap(fieldsOf) });
  }
  // 'Relation entities (…): a; b; slides/logotypes-to-x; widgets-to-articles, -sliders, …'
  const relLine = withoutParentheses(lines.find((l) => l.startsWith('Relation entities'))!);
  const relations = relLine
    .slice(relLine.indexOf(':') + 1)
    .replace(/\.\s.*$/, '')
    .split(';')
    .flatMap((part) => {
      const [first, ...more] = part.split(',').map((s) => s.trim().replace(/\.$/, ''));
      const prefix = first!.slice(0, first!.indexOf('-to-') + 4);
      const heads = first!.slice(0, first!.indexOf('-to-')).split('/');
      const tail = first!.slice(first!.indexOf('-to-') + 4);
      return [...heads.map((h) => `${h}-to-${tail}`), ...more.map((m) => prefix + m.replace(/^-/, ''))];
    })
    .filter(Boolean);
  return { entities, common, relationCommon, relations, modules: moduleNames, unknownRows };
}

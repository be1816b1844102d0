import type { EntityInfo, FieldInfo, ModelInfo } from './api.js';

/**
 * Words for what the model names: field, enum value, module and relation titles, id badges and validation
 * messages. Everything here is derived from the model (GET /api/admin/model); nothing names an entity.
 */

const ACRONYMS: Record<string, string> = { id: 'ID', url: 'URL', urls: 'URLs', sku: 'SKU', ip: 'IP', evm: 'EVM', jwt: 'JWT', mime: 'MIME', api: 'API', json: 'JSON', html: 'HTML', css: 'CSS', rbac: 'RBAC', crm: 'CRM', uuid: 'UUID' };

/** 'adminTitle' → 'Admin title', 'one_off' → 'One off', 'file-storage' → 'File storage', 'mimeType' → 'MIME type' */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  if (!words.length) return name;
  return words
    .map((w, i) => ACRONYMS[w] ?? (i === 0 ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/** a module's title: 'website-builder' → 'Website builder' */
export const moduleTitle = (module: string) => humanize(module);

/**
 * A field's title: the manifest's, else its name in words. A reference is named after what it points at
 * ('websiteBuilderModuleWidgetId' → 'Widget'); its own prefix stays when it says more ('externalWidgetId' →
 * 'External widget'). Any other field named '…Id' keeps it: 'providerId' → 'Provider ID'.
 */
export function fieldTitle(field: FieldInfo, model?: ModelInfo): string {
  if (field.title) return field.title;
  // only a reference (or a uuid that points at a row of an entity chosen elsewhere) drops its 'Id': an outside
  // system's id ('providerId', a text) is 'Provider ID', not the 'Provider' an enum beside it may be called
  if (field.kind === 'reference' || (/Id$/.test(field.name) && field.kind === 'text' && field.format === 'uuid')) {
    const bare = field.name.replace(/Id$/, '');
    const target = field.target ? model?.entities.find((e) => e.id === field.target) : undefined;
    // '<module>Module<Name>' names the target's module; the target's own title says it better
    if (target && /Module[A-Z]/.test(bare)) return target.title;
    return humanize(bare);
  }
  return humanize(field.name);
}

/** an enum value in words: 'one_off' → 'One off', 'ethereum_virtual_machine' → 'Ethereum virtual machine' */
export const enumLabel = (value: string) => humanize(value);

/** a plural of an English title, for headings over many rows */
export function plural(title: string): string {
  if (/(ss|x|z|ch|sh)$/i.test(title)) return `${title}es`;
  // already plural ('Pages to layouts')
  if (/s$/i.test(title)) return title;
  if (/[^aeiou]y$/i.test(title)) return `${title.slice(0, -1)}ies`;
  if (/(data|metadata|information)$/i.test(title)) return title;
  return `${title}s`;
}

/**
 * How an id badge shows an id: the first 8 and the last 4 characters, since demo and generated ids may share
 * their first 8 (7a2d3b50-0000-4000-8000-000000000001).
 */
export const shortId = (id: string) => (id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);

/** the language the admin shows titles in: the browser's when the site has it, else the default */
export function adminLanguage(model: Pick<ModelInfo, 'languages' | 'defaultLanguage'>): string {
  const nav = typeof navigator !== 'undefined' ? navigator.language?.slice(0, 2).toLowerCase() : undefined;
  return nav && model.languages.includes(nav) ? nav : model.defaultLanguage;
}

/** a relation entity and the two ends of it seen from one entity: near points back at it, far at the other row */
export interface RelationEnds {
  relation: EntityInfo;
  near: FieldInfo;
  far?: FieldInfo;
  farEntity?: EntityInfo;
}

/** relation entities that point at this entity, each with its near and far reference */
export function relationsOf(model: ModelInfo, entity: EntityInfo): RelationEnds[] {
  return model.entities.flatMap((rel) => {
    if (!rel.relation) return [];
    return rel.fields
      .filter((f) => f.kind === 'reference' && f.target === entity.id && rel.relation!.includes(f.name))
      .map((near) => {
        const far = rel.fields.find((f) => f.kind === 'reference' && rel.relation!.includes(f.name) && f !== near);
        return { relation: rel, near, far, farEntity: far && model.entities.find((e) => e.id === far.target) };
      });
  });
}

/**
 * A nested relation's heading, by the entity at its far end ('Categories', 'Widgets'): the far half of the
 * relation's own title ('Categories to products' seen from a product), without the '<module> module' prefix,
 * with the far module named when it differs.
 */
export function relationTitle(ends: RelationEnds, from: EntityInfo): string {
  const { relation, near, far, farEntity } = ends;
  if (!far || !farEntity) return relation.title;
  const halves = relation.title.split(/ to /i);
  let words: string | undefined;
  if (halves.length === 2) {
    const i = relation.relation!.indexOf(far.name);
    words = halves[i === 0 ? 0 : 1];
    if (relation.relation!.indexOf(near.name) === relation.relation!.indexOf(far.name)) words = undefined;
  }
  words = (words ?? plural(farEntity.title)).replace(/^.* module /i, '');
  const title = words.charAt(0).toUpperCase() + words.slice(1);
  return farEntity.module === from.module ? title : `${title} (${moduleTitle(farEntity.module)})`;
}

/** the entity a relation belongs to in the list of models: the target of its first reference */
export function ownerOf(model: ModelInfo, relation: EntityInfo): EntityInfo | undefined {
  const first = relation.relation?.[0];
  const field = relation.fields.find((f) => f.name === first);
  return field?.target ? model.entities.find((e) => e.id === field.target) : undefined;
}

/**
 * A polymorphic reference: a uuid text field '<prefix><Entity>Id' beside an enum '<prefix>Module' of module
 * names points at '<module>/<entity>' (host widgets-to-external-widgets: externalModule + externalWidgetId).
 */
export function polymorphicTarget(entity: EntityInfo, field: FieldInfo): { moduleField: string; name: string } | undefined {
  if (field.kind !== 'text' || field.format !== 'uuid') return undefined;
  const m = /^([a-z][A-Za-z0-9]*?)([A-Z][a-z0-9]+)Id$/.exec(field.name);
  if (!m) return undefined;
  const moduleField = entity.fields.find((f) => f.name === `${m[1]}Module` && f.kind === 'enum');
  if (!moduleField) return undefined;
  return { moduleField: moduleField.name, name: m[2]!.toLowerCase() };
}

const CLASS_WORDS: [RegExp, string][] = [
  [/a-zA-Z|A-Za-z/, 'letters'],
  [/a-z/, 'lowercase letters'],
  [/A-Z/, 'capital letters'],
  [/0-9|\\d/, 'digits'],
];
const CHAR_WORDS: Record<string, string> = { '-': 'hyphens', _: 'underscores', '.': 'dots', '/': 'slashes', ' ': 'spaces', '[': 'brackets', ']': 'brackets', ':': 'colons', '+': 'plus signs', '@': '@' };

function classWords(body: string, join = 'and'): string | undefined {
  let rest = body;
  const words: string[] = [];
  for (const [re, word] of CLASS_WORDS) {
    if (re.test(rest)) {
      words.push(word);
      rest = rest.replace(re, '');
    }
  }
  rest = rest.replace(/\\(.)/g, '$1');
  for (const ch of new Set(rest)) {
    const w = CHAR_WORDS[ch];
    if (!w) return undefined;
    if (!words.includes(w)) words.push(w);
  }
  if (!words.length) return undefined;
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} ${join} ${words.at(-1)}`;
}

/**
 * A regular expression in words, for the simple shapes manifests use ('^[a-z0-9-]+$' → 'Use only lowercase
 * letters, digits and hyphens'); undefined when it is not one of them.
 */
export function describePattern(pattern: string): string | undefined {
  const m = /^\^(\/)?(?:\[([^\]]*(?:\\\][^\]]*)*)\]([+*]|\{(\d+)\})?)?(?:\[([^\]]*(?:\\\][^\]]*)*)\]([+*]|\{(\d+)(?:,(\d*))?\}))?\$$/.exec(pattern);
  if (!m) return undefined;
  const [, slash, c1, q1, n1, c2, q2, n2] = m;
  const w1 = c1 !== undefined ? classWords(c1) : undefined;
  const w2 = c2 !== undefined ? classWords(c2) : undefined;
  if ((c1 !== undefined && !w1) || (c2 !== undefined && !w2)) return undefined;
  const lead = slash ? 'Start with "/" and use' : 'Use';
  if (c1 !== undefined && c2 === undefined) {
    if (n1) return `${lead} ${n1} ${w1}`;
    return `${lead} only ${w1}`;
  }
  if (c1 !== undefined && c2 !== undefined) {
    if (!n1 && !n2 && q1 !== '*') return `Start with ${classWords(c1, 'or')}; then use only ${w2}`;
  }
  if (slash && c1 === undefined) return 'Use only "/"';
  return undefined;
}

interface AjvLikeError {
  name?: string;
  property?: string;
  message?: string;
  params?: Record<string, unknown>;
  stack?: string;
}

/** an ajv error of the form's validator in words; the schema gives patterns and formats */
export function errorInWords(e: AjvLikeError, formatHint?: (format: string) => string | undefined): string {
  const p = e.params ?? {};
  switch (e.name) {
    case 'required':
      return 'Required';
    case 'pattern':
      return describePattern(String(p.pattern)) ?? 'Not in the expected form';
    case 'format': {
      const hint = formatHint?.(String(p.format));
      if (hint) return hint;
      switch (p.format) {
        case 'uuid':
          return 'Choose an existing row';
        case 'email':
          return 'Enter an email address, like name@example.com';
        case 'uri':
          return 'Enter a full address, like https://example.com';
        case 'date-time':
          return 'Use DD.MM.YYYY HH:mm';
        case 'date':
          return 'Enter a date';
        default:
          return 'Not in the expected form';
      }
    }
    case 'minLength':
      return Number(p.limit) === 1 ? 'Required' : `Use at least ${p.limit} characters`;
    case 'maxLength':
      return `Use at most ${p.limit} characters`;
    case 'minimum':
      return `Use ${p.limit} or more`;
    case 'maximum':
      return `Use ${p.limit} or less`;
    case 'type':
      return p.type === 'integer' ? 'Enter a whole number' : p.type === 'number' ? 'Enter a number' : 'Not in the expected form';
    case 'enum':
      return 'Choose one of the options';
    default:
      return e.message ? e.message.charAt(0).toUpperCase() + e.message.slice(1) : 'Not valid';
  }
}

/** a title in any language as a url slug: lowercase latin letters, digits and hyphens */
const CYRILLIC: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r',
  с: 's', т: 't', у: 'u', ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'sch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
};
export function slugify(title: string): string {
  return [...title.toLowerCase()]
    .map((ch) => CYRILLIC[ch] ?? ch)
    .join('')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

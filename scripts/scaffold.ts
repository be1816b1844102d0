import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { camel, pascal } from '../engine/model.js';
import { reservedModule } from '../engine/reserved.js';

/** words a module's plugin constant cannot be named (ECMAScript reserved words, strict mode's too) */
const JS_RESERVED = new Set(
  'await break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield arguments eval'.split(' '),
);

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** words that are their own plural (a route of 'metadata' is 'metadata') */
const UNCOUNTABLE = new Set(['data', 'metadata', 'media', 'information', 'news', 'series', 'species', 'equipment', 'feedback', 'content', 'analytics']);
const IRREGULAR: Record<string, string> = { person: 'people', child: 'children', man: 'men', woman: 'women', index: 'indexes' };

/** the plural of one English word: key → keys, category → categories, box → boxes, metadata → metadata */
function pluralWord(word: string): string {
  if (UNCOUNTABLE.has(word)) return word;
  if (IRREGULAR[word]) return IRREGULAR[word];
  // a consonant before the y: category → categories; a vowel keeps it: key → keys, day → days
  if (/[^aeiou]y$/.test(word)) return word.slice(0, -1) + 'ies';
  if (/(s|x|z|ch|sh)$/.test(word)) return word + 'es';
  return word + 's';
}

/** an English plural good enough for a route: the last word of a kebab-case name is made plural (attribute-key → attribute-keys) */
export function plural(name: string): string {
  const words = name.split('-');
  return [...words.slice(0, -1), pluralWord(words[words.length - 1]!)].join('-');
}

const title = (name: string) => name.split('-').map((w, i) => (i ? w : w[0].toUpperCase() + w.slice(1))).join(' ');

/**
 * A manifest skeleton: the usual fields, each with a `$comment` on what it does and what else it could be,
 * and the entity's options with theirs. Everything here can be deleted; `kind` is the only required key.
 */
export function manifestSkeleton(module: string, name: string): Record<string, unknown> {
  return {
    $schema: '../meta/manifest.schema.json',
    $comment:
      `The entity ${module}/${name}. Served at /api/${module}/${plural(name)}; its types are ${pascal(module)}${pascal(name)} and ${pascal(module)}${pascal(name)}Create. ` +
      "Options: 'access' public (anyone reads) or private (route permissions decide); 'owner' a reference field to rbac/subject, or {\"through\": \"rbac/subjects-to-…\"}, for owner scoping; " +
      "'variants' the looks the storefront registry draws ('default' first); 'relation' the two reference fields of a link entity; 'unique' composite unique field lists. " +
      'Common fields (id, createdAt, updatedAt, variant, className) are added by the engine. Grammar: schemas/meta/manifest.schema.json.',
    name,
    route: plural(name),
    title: title(name),
    access: 'public',
    variants: ['default'],
    fields: {
      adminTitle: { $comment: 'The name the admin lists rows by. generate: words fills a blank one with random words.', kind: 'text', required: true, generate: 'words' },
      slug: { $comment: "The row's address segment. unique adds a unique index; pattern is a regular expression the value must match; generate: slug fills a blank one.", kind: 'text', required: true, unique: true, generate: 'slug', pattern: '^[a-z0-9-]+$' },
      title: { $comment: 'localized: a map keyed by the languages of schemas/meta/languages.json. format: rich-text or multiline changes the admin editor.', kind: 'localized' },
      description: { $comment: 'Rich text, stored as a JSON document; rendered through an allow-list of nodes, never as HTML.', kind: 'localized', format: 'rich-text' },
      isPublished: { $comment: "Other kinds: text, enum (values), integer and number (minimum, maximum), boolean, datetime, date, json (schema), file (accept), reference (to, onDelete). 'access': {\"read\": [...], \"write\": [...]} limits who reads and writes a field: role slugs, public, signed-in, owner, admin.", kind: 'boolean', default: false, access: { write: ['admin'] } },
    },
  };
}

/** imports from a file at `from` to a file of the project at `root/to`, as written in TypeScript (with .js) */
const importPath = (from: string, to: string) => {
  const r = relative(dirname(from), to).replace(/\\/g, '/').replace(/\.tsx?$/, '.js');
  return r.startsWith('.') ? r : './' + r;
};

function write(path: string, text: string, written: string[]) {
  if (existsSync(path)) throw new Error(`${path} exists already: nothing was written`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  written.push(path);
}

/** inserts `line` after the last line starting with `after` in a file (the list of plugins, of web registrations) */
function insertAfterLast(path: string, after: RegExp, line: string) {
  const lines = readFileSync(path, 'utf8').split('\n');
  let at = -1;
  lines.forEach((l, i) => after.test(l) && (at = i));
  if (at < 0) throw new Error(`${path}: no line matching ${after} to insert after`);
  lines.splice(at + 1, 0, line);
  writeFileSync(path, lines.join('\n'));
}

export interface ScaffoldOptions {
  /** the project to write into (the repo); `webRoot` is where web/ lives, for imports */
  root: string;
  webRoot?: string;
}

/** `npm run new -- <module>/<entity>`: one manifest skeleton */
export function newEntity(spec: string, { root }: ScaffoldOptions): string[] {
  const [module, name, ...rest] = spec.split('/');
  if (!module || !name || rest.length || !NAME.test(module) || !NAME.test(name)) throw new Error(`expected <module>/<entity> in kebab-case, e.g. events/event; got '${spec}'`);
  const written: string[] = [];
  write(join(root, 'schemas', module, `${name}.json`), JSON.stringify(manifestSkeleton(module, name), null, 2) + '\n', written);
  return written;
}

/**
 * `npm run new -- <module>`: a module folder — its widget entity, an empty plugin (routes, hooks and services
 * go there), a widget stub registered in the variant registry, and a test that renders it — wired into the
 * lists of plugins and web registrations.
 */
export function newModule(module: string, { root, webRoot = root }: ScaffoldOptions): string[] {
  if (!NAME.test(module)) throw new Error(`expected a module name in kebab-case, e.g. events; got '${module}'`);
  if (existsSync(join(root, 'plugins', module)) || existsSync(join(root, 'schemas', module))) throw new Error(`module '${module}' exists already: nothing was written`);
  // everything codegen or the compiler would refuse afterwards is refused here, before a file is written
  const reserved = reservedModule(module);
  if (reserved) throw new Error(`the module name '${module}' would shadow ${reserved.path}, which the platform serves (${reserved.by}): nothing was written; choose another name`);
  const id = camel(module);
  if (JS_RESERVED.has(id)) throw new Error(`'${module}' names its plugin '${id}', a JavaScript reserved word: nothing was written; choose another name`);
  for (const list of ['plugins/index.ts', 'plugins/web.ts']) {
    const path = join(root, list);
    // a name the list declares or imports already (`export const plugins`, `import { blog }`)
    const names = `(${id}|register${pascal(module)}Web)`;
    const taken = existsSync(path) && new RegExp(`(\\b(const|let|var|function|class)\\s+${names}\\b)|(import\\s*(type\\s*)?\\{[^}]*\\b${names}\\b)`).test(readFileSync(path, 'utf8'));
    if (taken) throw new Error(`'${module}' names its plugin '${id}', a name ${list} already uses: nothing was written; choose another name`);
  }
  const Pascal = pascal(module);
  const written: string[] = [];
  const widget = {
    $schema: '../meta/manifest.schema.json',
    $comment: `The ${module} module's widget: a host page shows it through host/widgets-to-external-widgets (externalModule '${module}'), drawn by the variant registered as '${module}/widget/<variant>'.`,
    name: 'widget',
    route: 'widgets',
    title: 'Widget',
    variants: ['default'],
    fields: {
      adminTitle: { kind: 'text', required: true, generate: 'words' },
      slug: { kind: 'text', required: true, unique: true, generate: 'slug', pattern: '^[a-z0-9-]+$' },
      title: { kind: 'localized' },
      subtitle: { kind: 'localized' },
    },
  };
  write(join(root, 'schemas', module, 'widget.json'), JSON.stringify(widget, null, 2) + '\n', written);

  const server = join(root, 'plugins', module, 'server', 'index.ts');
  write(
    server,
    `import type { Plugin } from '${importPath(server, join(webRoot, 'runtime/plugin.ts'))}';

/**
 * The ${module} module. Add routes (mounted before the generic CRUD routes), typed entity hooks (see
 * docs/ARCHITECTURE.md, "The write pipeline"), services for other modules, and seed rows.
 */
export const ${id}: Plugin = {
  name: '${module}',
  // routes: (app, ctx) => { app.get('/api/${module}/hello', (c) => c.json({ data: 'hello' })); },
  // hooks: { '${module}/widget': { afterCommit({ operation, row }) { /* … */ } } },
};
`,
    written,
  );
  const view = join(root, 'plugins', module, 'web', 'widget.tsx');
  write(
    view,
    `import { useT, type Expanded } from '${importPath(view, join(webRoot, 'web/storefront/context.tsx'))}';

/** ${module}/widget/default: the widget's title and subtitle in the page language */
export function ${Pascal}WidgetDefault({ row }: { row: Expanded }) {
  const t = useT();
  return (
    <section className="mx-auto max-w-7xl px-4 py-12" data-module="${module}">
      <h2 className="text-3xl font-bold tracking-tight text-slate-900">{t(row.title)}</h2>
      {t(row.subtitle) && <p className="mt-3 text-lg text-slate-600">{t(row.subtitle)}</p>}
    </section>
  );
}
`,
    written,
  );
  const index = join(root, 'plugins', module, 'web', 'index.ts');
  write(
    index,
    `import { registerLazy } from '${importPath(index, join(webRoot, 'web/registry.ts'))}';

/**
 * the ${module} module's web variants, each file's code loaded when a page shows one of its variants (the chunk is
 * named by the file's path from the root; a page that shows no ${module} widget loads none of it)
 */
export function register${Pascal}Web() {
  registerLazy('plugins/${module}/web/widget', () => import('./widget.js'), { '${module}/widget/default': '${Pascal}WidgetDefault' });
}
`,
    written,
  );
  const test = join(root, 'plugins', module, 'web', 'widget.test.tsx');
  write(
    test,
    `import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { PageProvider, Variant } from '${importPath(test, join(webRoot, 'web/storefront/context.tsx'))}';
import { loadChunks } from '${importPath(test, join(webRoot, 'web/registry.ts'))}';
import { register${Pascal}Web } from './index.js';

afterEach(cleanup);
beforeAll(async () => {
  register${Pascal}Web();
  await loadChunks();
});

describe('${module} widget', () => {
  it('default: draws its title in the page language', () => {
    const row = { id: 'w1', variant: 'default', title: { en: 'Hello', ru: 'Привет' }, subtitle: { en: 'From ${module}' } };
    render(<PageProvider value={{ language: 'ru', languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} }}><Variant module="${module}" entity="widget" row={row} /></PageProvider>);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Привет');
    expect(screen.getByText('From ${module}')).toBeTruthy();
  });
});
`,
    written,
  );
  const plugins = join(root, 'plugins', 'index.ts');
  insertAfterLast(plugins, /^import /, `import { ${id} } from './${module}/server/index.js';`);
  writeFileSync(plugins, readFileSync(plugins, 'utf8').replace(/export const plugins: Plugin\[\] = \[([^\]]*)\];/, (_, list: string) => `export const plugins: Plugin[] = [${list.trim()}, ${id}];`));
  const web = join(root, 'plugins', 'web.ts');
  // the module's declarations of its web variants (each file's code is loaded when a page shows one of its variants)
  insertAfterLast(web, /^import \{ register\w+Web \} from /, `import { register${Pascal}Web } from './${module}/web/index.js';`);
  insertAfterLast(web, /^ {2}register\w+Web,$/, `  register${Pascal}Web,`);
  written.push(plugins, web);
  return written;
}

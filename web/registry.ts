import { createElement, lazy, Suspense, type ComponentType } from 'react';

/** the views every entity has in the admin (spec §2) */
export const ADMIN_VARIANTS = ['find', 'admin-table', 'admin-table-row', 'admin-select-input', 'admin-form', 'default'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;
/** what register() put in: always found first, never replaced by a lazy load */
const entries = new Map<string, AnyComponent>();

/**
 * The variant registry: one map keyed by '<module>/<entity>/<variant>'. Plugins add entries; an
 * integrator overrides one by registering the same key; '*' / '*' / variant is the generic one
 * every entity falls back to. A key registered here wins over the same key declared lazily (registerLazy),
 * before or after its chunk loads.
 * @example register('ecommerce/product/admin-form', ProductForm)
 */
export function register(key: string, component: AnyComponent) {
  entries.set(key, component);
}

/** how a key declared lazily finds its component among its file's exports: an export's name, or a function of them */
export type LazyPick<M> = (keyof M & string) | ((exports: M) => AnyComponent);

interface Chunk {
  load: () => Promise<unknown>;
  loading?: Promise<void>;
  /** the file's exports, once loaded */
  exports?: Record<string, unknown>;
  /** the keys declared in this chunk */
  keys: string[];
}
/** the lazily loaded files by name (their path from the repository's root, without the extension) */
const chunks = new Map<string, Chunk>();
/** each key declared lazily: the chunk that draws it and how to pick its component */
const lazyKeys = new Map<string, { chunk: string; pick: LazyPick<Record<string, unknown>> }>();
/** the components of lazy keys whose chunk has loaded */
const loaded = new Map<string, AnyComponent>();
const placeholders = new Map<string, AnyComponent>();
let collecting: Set<string> | undefined;

/**
 * Variants whose code is loaded on demand, one file at a time (in the browser each such file is a chunk of its own,
 * and what its variants share lands in chunks they import). `chunk` names the file by its path from the repository's
 * root without the extension — the name the server finds its chunk by in Vite's manifest (runtime/web.ts) —, `load`
 * imports it, `variants` maps each registry key the file draws to its export (or a function of its exports).
 *
 * Until its chunk has loaded, a lookup of one of these keys answers a placeholder that loads the chunk and then
 * draws the variant (nothing meanwhile). The server loads every chunk before it renders and notes which ones each
 * render looked up (`collectChunks`); the browser loads exactly those before it hydrates, so the first render in the
 * browser matches the server's HTML. A key declared already keeps its first declaration; a key given to register()
 * is drawn by that component and needs no chunk.
 * @example registerLazy('plugins/blog/web/latest', () => import('./latest.js'), { 'blog/widget/article-list-latest-default': 'ArticleListLatest' })
 */
export function registerLazy<M>(chunk: string, load: () => Promise<M>, variants: Record<string, LazyPick<NoInfer<M>>>) {
  let c = chunks.get(chunk);
  if (!c) chunks.set(chunk, (c = { load, keys: [] }));
  for (const [key, pick] of Object.entries(variants)) {
    if (lazyKeys.has(key)) continue;
    lazyKeys.set(key, { chunk, pick: pick as LazyPick<Record<string, unknown>> });
    c.keys.push(key);
    if (c.exports) settle(key, c.exports);
  }
}

/** a loaded key's component, picked once from its file's exports */
function settle(key: string, exports: Record<string, unknown>) {
  const { pick } = lazyKeys.get(key)!;
  const component = typeof pick === 'function' ? pick(exports) : exports[pick];
  if (typeof component === 'function' || (typeof component === 'object' && component !== null)) loaded.set(key, component as AnyComponent);
}

function ensure(name: string): Promise<void> {
  const c = chunks.get(name);
  if (!c || c.exports) return Promise.resolve();
  c.loading ??= c.load().then((exports) => {
    c.exports = exports as Record<string, unknown>;
    for (const key of c.keys) settle(key, c.exports);
  });
  // a failed chunk load may be tried again (the next render)
  c.loading.catch(() => (c.loading = undefined));
  return c.loading;
}

/** loads the named chunks (every one declared when no names are given); unknown names are ignored */
export async function loadChunks(names?: Iterable<string>): Promise<void> {
  await Promise.all([...(names ?? chunks.keys())].map(ensure));
}

/**
 * Runs a synchronous render and answers, with its result, the chunks of the lazy keys it looked up.
 * @example const { result: html, chunks } = collectChunks(() => renderToString(<Page />));
 */
export function collectChunks<T>(render: () => T): { result: T; chunks: string[] } {
  const outer = collecting;
  const used = (collecting = new Set());
  try {
    return { result: render(), chunks: [...used].sort() };
  } finally {
    collecting = outer;
  }
}

/** a key's component once its chunk is loaded (or registered): its own, else the generic one, else nothing */
function settled(key: string, variant: string): AnyComponent | undefined {
  return entries.get(key) ?? loaded.get(key) ?? entries.get(`*/*/${variant}`);
}

const Nothing = () => null;

function placeholder(key: string, variant: string): AnyComponent {
  let found = placeholders.get(key);
  if (!found) {
    const Loaded = lazy(() => ensure(lazyKeys.get(key)!.chunk).then(() => ({ default: settled(key, variant) ?? Nothing })));
    found = (props: object) => createElement(Suspense, { fallback: null }, createElement(Loaded, props));
    placeholders.set(key, found);
  }
  return found;
}

/** the component for an entity's variant: its own, else the generic one, else undefined (render nothing) */
export function lookup(module: string, entity: string, variant: string): AnyComponent | undefined {
  const key = `${module}/${entity}/${variant}`;
  const own = entries.get(key);
  if (own) return own;
  const declared = lazyKeys.get(key);
  if (declared) {
    collecting?.add(declared.chunk);
    if (!chunks.get(declared.chunk)!.exports) return placeholder(key, variant);
  }
  return settled(key, variant);
}

/** the keys registered so far (a lazy key's once its chunk has loaded) */
export function registered(): string[] {
  return [...new Set([...entries.keys(), ...loaded.keys()])].sort();
}

/** every chunk declared (registerLazy) with the keys it draws and its loader: for tests and tools */
export function declaredChunks(): { name: string; keys: string[]; load: () => Promise<unknown> }[] {
  return [...chunks].map(([name, c]) => ({ name, keys: [...c.keys], load: c.load }));
}

import { createElement, lazy, Suspense, type ComponentType } from 'react';

/** the views every entity has in the admin (spec §2) */
export const ADMIN_VARIANTS = ['find', 'admin-table', 'admin-table-row', 'admin-select-input', 'admin-form', 'default'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;
const entries = new Map<string, AnyComponent>();

/**
 * The variant registry: one map keyed by '<module>/<entity>/<variant>'. Plugins add entries; an
 * integrator overrides one by registering the same key; '*' / '*' / variant is the generic one
 * every entity falls back to.
 * @example register('ecommerce/product/admin-form', ProductForm)
 */
export function register(key: string, component: AnyComponent) {
  // a lazy module loading later never replaces what was registered explicitly before it
  if (registeringLazily && entries.has(key)) return;
  entries.set(key, component);
}
let registeringLazily = false;

/**
 * A module whose variants are registered by code loaded on demand (a chunk of its own in the browser):
 * `load` answers the function that registers them. Until it has run, a lookup of one of the module's keys
 * answers a placeholder that loads the module and then draws the variant (or nothing). The server loads every
 * module before it renders and notes which ones each render looked up (`collectModules`); the browser loads
 * exactly those before it hydrates, so the first render in the browser matches the server's HTML.
 * @example registerLazy('blog', () => import('./blog/web/index.js').then((m) => m.registerBlogWeb))
 */
export function registerLazy(module: string, load: () => Promise<(() => void) | void>) {
  if (!lazyModules.has(module)) lazyModules.set(module, { load, done: false });
}

interface LazyModule {
  load: () => Promise<(() => void) | void>;
  loading?: Promise<void>;
  done: boolean;
}
const lazyModules = new Map<string, LazyModule>();
const placeholders = new Map<string, AnyComponent>();
let collecting: Set<string> | undefined;

function ensure(name: string): Promise<void> {
  const m = lazyModules.get(name);
  if (!m) return Promise.resolve();
  m.loading ??= m.load().then((registerAll) => {
    registeringLazily = true;
    try {
      registerAll?.();
    } finally {
      registeringLazily = false;
    }
    m.done = true;
  });
  // a failed chunk load may be tried again (the next render)
  m.loading.catch(() => (m.loading = undefined));
  return m.loading;
}

/** loads the named lazy modules (every one when no names are given); unknown names are ignored */
export async function loadModules(names?: Iterable<string>): Promise<void> {
  await Promise.all([...(names ?? lazyModules.keys())].map(ensure));
}

/**
 * Runs a synchronous render and answers, with its result, the lazy modules it looked variants up in.
 * @example const { result: html, modules } = collectModules(() => renderToString(<Page />));
 */
export function collectModules<T>(render: () => T): { result: T; modules: string[] } {
  const outer = collecting;
  const used = (collecting = new Set());
  try {
    return { result: render(), modules: [...used].sort() };
  } finally {
    collecting = outer;
  }
}

function placeholder(module: string, entity: string, variant: string): AnyComponent {
  const key = `${module}/${entity}/${variant}`;
  let found = placeholders.get(key);
  if (!found) {
    const Loaded = lazy(() => ensure(module).then(() => ({ default: (lookup(module, entity, variant) ?? (() => null)) as AnyComponent })));
    found = (props: object) => createElement(Suspense, { fallback: null }, createElement(Loaded, props));
    placeholders.set(key, found);
  }
  return found;
}

/** the component for an entity's variant: its own, else the generic one, else undefined (render nothing) */
export function lookup(module: string, entity: string, variant: string): AnyComponent | undefined {
  const m = lazyModules.get(module);
  if (m) collecting?.add(module);
  const own = entries.get(`${module}/${entity}/${variant}`);
  if (own) return own;
  if (m && !m.done) return placeholder(module, entity, variant);
  return entries.get(`*/*/${variant}`);
}

/** the keys registered so far (a lazy module's once it has loaded) */
export function registered(): string[] {
  return [...entries.keys()].sort();
}

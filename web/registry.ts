import type { ComponentType } from 'react';

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
  entries.set(key, component);
}

/** the component for an entity's variant: its own, else the generic one, else undefined (render nothing) */
export function lookup(module: string, entity: string, variant: string): AnyComponent | undefined {
  return entries.get(`${module}/${entity}/${variant}`) ?? entries.get(`*/*/${variant}`);
}

export function registered(): string[] {
  return [...entries.keys()].sort();
}

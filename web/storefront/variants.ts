import type { ComponentType } from 'react';
import { lookup } from '../registry.js';

/**
 * The spec writes some variant names with the product's name in them: `content-{product}-description`,
 * `product-list-{product}-recommendation`, `{product}-vacancy`. `{product}` is the product (site) name,
 * configured once (PRODUCT_NAME, carried to the browser in the page context). The manifests list these
 * variants without it ('content-description', 'vacancy'), which is the same name with no product set.
 */
export const PRODUCT_TOKEN = '{product}';

const segments = (s: string) => s.split('-').filter(Boolean);

/** a spec name with `{product}` spelled out: ('content-{product}-description', 'acme') → 'content-acme-description'; no product → 'content-description' */
export function spellVariant(template: string, product?: string): string {
  return template
    .split('-')
    .flatMap((part) => (part === PRODUCT_TOKEN ? (product ? segments(product) : []) : [part]))
    .join('-');
}

/** the manifest's name of a spelled-out variant: ('content-acme-description', 'acme') → 'content-description'; other names stay */
export function canonicalVariant(variant: string, product?: string): string {
  if (!product) return variant;
  const parts = segments(variant);
  const name = segments(product);
  for (let i = 0; i + name.length <= parts.length; i++) {
    if (name.every((p, j) => parts[i + j] === p)) return [...parts.slice(0, i), ...parts.slice(i + name.length)].join('-') || variant;
  }
  return variant;
}

/**
 * The component for a row's variant: registered under the name as given, else under its manifest name
 * (the product's name taken out). Undefined for an unknown variant, which then renders nothing (spec §8).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function resolveVariant(module: string, entity: string, variant: string, product?: string): ComponentType<any> | undefined {
  return lookup(module, entity, variant) ?? (product ? lookup(module, entity, canonicalVariant(variant, product)) : undefined);
}

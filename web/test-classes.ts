import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `.name { @apply …; }` of web/styles.css: the storefront's named classes and the utilities each stands for */
const NAMED = new Map<string, string[]>(
  [...readFileSync(join(import.meta.dirname, 'styles.css'), 'utf8').matchAll(/^\s*\.([\w-]+)\s*\{\s*@apply ([^;]+);/gm)].map((m) => [m[1]!, m[2]!.trim().split(/\s+/)]),
);

/**
 * For component tests: an element's classes with each class named in web/styles.css replaced by its utilities,
 * so a test asserts the look ('w-2/12') whether the markup spells it out or names it.
 * @example expect(utilitiesOf(button.className)).toContain('w-2/12')
 */
export const utilitiesOf = (className: string): string[] => className.split(/\s+/).filter(Boolean).flatMap((c) => NAMED.get(c) ?? [c]);

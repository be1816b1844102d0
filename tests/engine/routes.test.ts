import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { loadModel } from '../../engine/load.js';
import { ROOT } from '../../engine/codegen.js';
import { plural } from '../../scripts/scaffold.js';

/**
 * Routes the manifests give that the pluralizer would not, each with the reason it stays. Empty: the last one,
 * 'attribute-keies', became 'attribute-keys' through the manifest's `renamedFrom`, which renames the table.
 */
const KNOWN_EXCEPTIONS: Record<string, string> = {};

describe('route names', () => {
  it('the pluralizer: the last word of a name, English rules, words that are their own plural', () => {
    expect(['event', 'category', 'box', 'gadget', 'key', 'attribute-key', 'day', 'metadata', 'buttons-array', 'person', 'news', 'match', 'policy'].map(plural)).toEqual(
      ['events', 'categories', 'boxes', 'gadgets', 'keys', 'attribute-keys', 'days', 'metadata', 'buttons-arrays', 'people', 'news', 'matches', 'policies'],
    );
  });

  it('every generated route is the plural of its entity (a relation keeps its own name), but for the listed exceptions', () => {
    const model = loadModel(join(ROOT, 'schemas'));
    const wrong = model.entities
      .map((e) => ({ id: e.id, route: e.route, expected: e.relation ? e.name : plural(e.name) }))
      .filter((e) => e.route !== e.expected && KNOWN_EXCEPTIONS[e.id] !== e.route);
    expect(wrong).toEqual([]);
    // an exception that is no longer one must leave the list
    for (const [id, route] of Object.entries(KNOWN_EXCEPTIONS)) expect(model.byId[id]?.route, id).toBe(route);
  });
});

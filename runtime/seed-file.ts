import { readFileSync } from 'node:fs';
import type { SeedData } from './plugin.js';

/** reads a plugin's seed.json, e.g. seedFile(new URL('../seed.json', import.meta.url)) */
export const seedFile = (url: URL): SeedData => JSON.parse(readFileSync(url, 'utf8'));

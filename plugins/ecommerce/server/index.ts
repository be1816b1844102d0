import type { Plugin } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';

/** the ecommerce module: demo rows for now; behaviour lands with its issues */
export const ecommerce: Plugin = {
  name: 'ecommerce',
  seed: seedFile(new URL('../seed.json', import.meta.url)),
};

import type { Plugin } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';

/** the rbac module: demo rows for now; behaviour lands with its issues */
export const rbac: Plugin = {
  name: 'rbac',
  seed: seedFile(new URL('../seed.json', import.meta.url)),
};

import type { Plugin } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';

/** the host module: demo rows for now; behaviour lands with its issues */
export const host: Plugin = {
  name: 'host',
  seed: seedFile(new URL('../seed.json', import.meta.url)),
};

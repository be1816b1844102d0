import type { Plugin } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';

/** the blog module: demo articles, a category and the widgets the host pages point at */
export const blog: Plugin = {
  name: 'blog',
  seed: seedFile(new URL('../seed.json', import.meta.url)),
};

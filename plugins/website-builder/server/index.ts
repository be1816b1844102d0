import type { Plugin } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';

/** the website-builder module: demo widgets (navbar, hero slider, features, footer) for the storefront */
export const websiteBuilder: Plugin = {
  name: 'website-builder',
  seed: seedFile(new URL('../seed.json', import.meta.url)),
};

import { registerLazy } from '../../../web/registry.js';

/** the file variants the storefront draws; the generate-template-* ones render the file itself */
export const FILE_VARIANTS = [
  'default',
  'generate-template-opengraph-image',
  'generate-template-ecommerce-module-order-receipt',
  'generate-template-ecommerce-module-product-attachment',
] as const;

/** the file-storage module's web variants */
export function registerFileStorageWeb() {
  registerLazy('plugins/file-storage/web/file', () => import('./file.js'), Object.fromEntries(FILE_VARIANTS.map((v) => [`file-storage/file/${v}`, 'FileView' as const])));
  registerLazy('plugins/file-storage/web/gallery', () => import('./gallery.js'), { 'file-storage/widget/default': 'FileGalleryWidget' });
}

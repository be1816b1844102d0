import { register } from '../../../web/registry.js';
import { FileView } from './file.js';
import { FileGalleryWidget } from './gallery.js';

/** the file variants the storefront draws; the generate-template-* ones render the file itself */
export const FILE_VARIANTS = [
  'default',
  'generate-template-opengraph-image',
  'generate-template-ecommerce-module-order-receipt',
  'generate-template-ecommerce-module-product-attachment',
] as const;

/** the file-storage module's web variants */
export function registerFileStorageWeb() {
  for (const variant of FILE_VARIANTS) register(`file-storage/file/${variant}`, FileView);
  register('file-storage/widget/default', FileGalleryWidget);
}

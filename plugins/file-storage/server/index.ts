import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { driverFromEnv, type StorageDriver } from './drivers/index.js';
import { fileHooks, fileStorageService, type FileStorageService } from './store.js';
import { fileRoutes } from './routes.js';
import type { OutboundOptions } from './outbound.js';
import { generatedHooks, generateRoutes, generator } from './generate/index.js';
import { imageCache } from './generate/cache.js';
import { seedFile } from '../../../runtime/seed-file.js';

export { ALLOWED } from './content.js';
export type { FileStorageService } from './store.js';

export interface FileStorageOptions {
  /** the storage driver; by default the one FILE_STORAGE_PROVIDER names (drivers/index.ts driverFromEnv) */
  driver?: StorageDriver | (() => StorageDriver);
  /** bounds of create-from-url's fetch, and for tests a resolver and a permit for their local servers */
  outbound?: OutboundOptions;
}

/**
 * the file-storage module: files judged by their bytes, stored through one driver (local, S3, Vercel Blob), served
 * safely; files fetched from a url (SSRF-safe) and images generated from templates
 */
export function createFileStoragePlugin(options: FileStorageOptions = {}): Plugin {
  const drivers = new WeakMap<PluginContext, StorageDriver>();
  const services = new WeakMap<PluginContext, FileStorageService>();
  const generators = new WeakMap<PluginContext, ReturnType<typeof generator>>();
  const driverOf = (ctx: PluginContext) => {
    let d = drivers.get(ctx);
    if (!d) {
      d = typeof options.driver === 'function' ? options.driver() : (options.driver ?? driverFromEnv());
      drivers.set(ctx, d);
    }
    return d;
  };
  const serviceOf = (ctx: PluginContext) => {
    let s = services.get(ctx);
    if (!s) {
      const gen = generator(ctx, () => serviceOf(ctx), imageCache(() => driverOf(ctx)));
      generators.set(ctx, gen);
      services.set(ctx, (s = { ...fileStorageService(ctx, driverOf(ctx)), openGraphImageUrl: gen.openGraphImageUrl }));
    }
    return s;
  };
  const generatorOf = (ctx: PluginContext) => (serviceOf(ctx), generators.get(ctx)!);
  return {
    name: 'file-storage',
    services: (ctx) => ({ fileStorage: serviceOf(ctx) }),
    hooks: (ctx) => ({ ...fileHooks(ctx, () => driverOf(ctx)), ...generatedHooks(ctx, () => generatorOf(ctx)) }),
    routes: (app, ctx) => {
      fileRoutes(app, ctx, () => serviceOf(ctx), options.outbound);
      generateRoutes(app, ctx, generatorOf(ctx));
    },
    defaults: seedFile(new URL('../defaults.json', import.meta.url)),
  };
}

export const fileStorage = createFileStoragePlugin();

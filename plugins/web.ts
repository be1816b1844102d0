import { loadChunks } from '../web/registry.js';
import { registerRbacWeb } from './rbac/web/index.js';
import { registerBlogWeb } from './blog/web/index.js';
import { registerStartupWeb } from './startup/web/index.js';
import { registerCrmWeb } from './crm/web/index.js';
import { registerSocialWeb } from './social/web/index.js';
import { registerWebsiteBuilderWeb } from './website-builder/web/index.js';
import { registerFileStorageWeb } from './file-storage/web/index.js';
import { registerEcommerceWeb } from './ecommerce/web/index.js';
import { registerAnalyticWeb } from './analytic/web/index.js';
import { registerBillingWeb } from './billing/web/index.js';
import { registerAgentWeb } from './agent/web/index.js';
import { registerNotificationWeb } from './notification/web/index.js';

/**
 * Every module's web variants. Each module's web/index.ts declares its variants lazily (web/registry's
 * registerLazy): key → the file that draws it, loaded on demand. In the browser each such file is a chunk of its
 * own, so the storefront's first load holds no widget and a page loads the code of the variants it shows.
 */
const WEB_MODULES: (() => void)[] = [
  registerRbacWeb,
  registerBlogWeb,
  registerStartupWeb,
  registerCrmWeb,
  registerSocialWeb,
  registerWebsiteBuilderWeb,
  registerFileStorageWeb,
  registerEcommerceWeb,
  registerAnalyticWeb,
  registerBillingWeb,
  registerAgentWeb,
  registerNotificationWeb,
];

/** names every module's web variants without loading any (the storefront's entry: it loads what a page shows) */
export function declarePluginVariants() {
  for (const declare of WEB_MODULES) declare();
}

let registered: Promise<void> | undefined;
/**
 * every module's web variants, loaded and registered into web/registry (the admin, the server, tests); once: a
 * second call (the server's renderer after a test registered its own component) changes nothing
 */
export function registerPluginVariants(): Promise<void> {
  return (registered ??= (async () => {
    declarePluginVariants();
    await loadChunks();
  })());
}

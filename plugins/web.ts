import { loadModules, registerLazy } from '../web/registry.js';

/**
 * Every module's web variants, each module's code loaded on demand: in the browser each is a chunk of its own,
 * so the storefront's first load holds none of them and a page loads the modules of the widgets it shows.
 */
const WEB_MODULES: Record<string, () => Promise<() => void>> = {
  rbac: () => import('./rbac/web/index.js').then((m) => m.registerRbacWeb),
  blog: () => import('./blog/web/index.js').then((m) => m.registerBlogWeb),
  startup: () => import('./startup/web/index.js').then((m) => m.registerStartupWeb),
  crm: () => import('./crm/web/index.js').then((m) => m.registerCrmWeb),
  social: () => import('./social/web/index.js').then((m) => m.registerSocialWeb),
  'website-builder': () => import('./website-builder/web/index.js').then((m) => m.registerWebsiteBuilderWeb),
  'file-storage': () => import('./file-storage/web/index.js').then((m) => m.registerFileStorageWeb),
  ecommerce: () => import('./ecommerce/web/index.js').then((m) => m.registerEcommerceWeb),
  analytic: () => import('./analytic/web/index.js').then((m) => m.registerAnalyticWeb),
  billing: () => import('./billing/web/index.js').then((m) => m.registerBillingWeb),
  agent: () => import('./agent/web/index.js').then((m) => m.registerAgentWeb),
  notification: () => import('./notification/web/index.js').then((m) => m.registerNotificationWeb),
};

/** names every module's web variants without loading any (the storefront's entry: it loads what a page shows) */
export function declarePluginVariants() {
  for (const [name, load] of Object.entries(WEB_MODULES)) registerLazy(name, load);
}

let registered: Promise<void> | undefined;
/**
 * every module's web variants, loaded and registered into web/registry (the admin, the server, tests); once: a
 * second call (the server's renderer after a test registered its own component) changes nothing
 */
export function registerPluginVariants(): Promise<void> {
  return (registered ??= (async () => {
    declarePluginVariants();
    await loadModules();
  })());
}

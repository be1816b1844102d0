import { registerRbacWeb } from './rbac/web/index.js';
import { registerBlogWeb } from './blog/web/index.js';
import { registerStartupWeb } from './startup/web/index.js';
import { registerCrmWeb } from './crm/web/index.js';
import { registerSocialWeb } from './social/web/index.js';
import { registerWebsiteBuilderWeb } from './website-builder/web/index.js';
import { registerFileStorageWeb } from './file-storage/web/index.js';
import { registerEcommerceWeb } from './ecommerce/web/index.js';
import { registerAnalyticWeb } from './analytic/web/index.js';

let done = false;
/** every module's web variants, registered into web/registry before an app renders (once) */
export function registerPluginVariants() {
  if (done) return;
  done = true;
  registerRbacWeb();
  registerBlogWeb();
  registerStartupWeb();
  registerCrmWeb();
  registerSocialWeb();
  registerWebsiteBuilderWeb();
  registerFileStorageWeb();
  registerEcommerceWeb();
  registerAnalyticWeb();
}

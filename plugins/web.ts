import { registerRbacWeb } from './rbac/web/index.js';

/** every module's web variants, registered into web/registry before an app renders */
export function registerPluginVariants() {
  registerRbacWeb();
}

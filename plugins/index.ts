import type { Plugin } from '../runtime/plugin.js';
import { billing } from './billing/server/index.js';
import { agent } from './agent/server/index.js';
import { analytic } from './analytic/server/index.js';
import { broadcast } from './broadcast/server/index.js';
import { blog } from './blog/server/index.js';
import { crm } from './crm/server/index.js';
import { ecommerce } from './ecommerce/server/index.js';
import { fileStorage } from './file-storage/server/index.js';
import { host } from './host/server/index.js';
import { notification } from './notification/server/index.js';
import { rbac } from './rbac/server/index.js';
import { websiteBuilder } from './website-builder/server/index.js';

/** every module's plugin; the server takes this list and nothing else knows a module by name */
export const plugins: Plugin[] = [notification, billing, ecommerce, blog, crm, fileStorage, host, rbac, websiteBuilder, agent, broadcast, analytic];

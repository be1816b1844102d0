import type { Model } from '../model.js';
import { camel } from '../model.js';
import { HEADER } from './header.js';
import { typeName } from '../model.js';

/** the route table: one entry per entity, mounted at /api/<module>/<route> */
export function routeTable(model: Model) {
  return model.entities.map((e) => ({ entity: e.id, module: e.module, route: e.route, path: `/api/${e.module}/${e.route}`, access: e.access }));
}

export function generateRoutes(model: Model): string {
  return HEADER() + `export const routes = ${JSON.stringify(routeTable(model), null, 2)} as const;\n`;
}

/**
 * The typed client: api.<module>.<route>.find(...) for every entity, each an EntityClient
 * bound to the entity's row and create types.
 */
export function generateClient(model: Model, runtimeClientImport: string): string {
  const lines: string[] = [];
  for (const module of model.modules) {
    lines.push(`    ${camel(module)}: {`);
    for (const e of model.entities.filter((x) => x.module === module)) {
      lines.push(`      ${camel(e.route)}: entityClient<T.${typeName(e)}, T.${typeName(e)}Create>(http, '/api/${e.module}/${e.route}'),`);
    }
    lines.push('    },');
  }
  return (
    HEADER() +
    `import { createHttp, entityClient, type ClientOptions } from '${runtimeClientImport}';\n` +
    `import type * as T from './types.js';\n\n` +
    `/**\n * A typed client for every entity.\n * @example const api = createApi({ baseUrl: 'http://localhost:4000' });\n *   const products = await api.ecommerce.products.find({ filters: { and: [{ column: 'slug', method: 'eq', value: 'x' }] } });\n */\n` +
    `export function createApi(options: ClientOptions = {}) {\n  const http = createHttp(options);\n  return {\n${lines.join('\n')}\n  };\n}\n\nexport type Api = ReturnType<typeof createApi>;\n`
  );
}

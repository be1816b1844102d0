import { and, type SQL } from 'drizzle-orm';
import type { PluginContext } from './plugin.js';

/**
 * What a module says of its rows as pages, by entity id (a service's `listedOnPages`): only the rows the condition
 * holds for are the site's public pages — listed among its urls (the host's sitemap and /api/host/pages/urls) and
 * given a generated OpenGraph image. The accounts module lists no subject without a sign-in method: each visitor's
 * anonymous session is a subject (authentication/init), and is nobody's page.
 * @example services: (ctx) => ({ accounts: { listedOnPages: { 'rbac/subject': (t) => exists(…) } } })
 */
export type ListedOnPages = Record<string, (table: Record<string, unknown>) => SQL>;

/** the condition an entity's rows are listed on (every module's that has one), for its table; undefined for all rows */
export function listedWhere(ctx: Pick<PluginContext, 'services'>, entityId: string, table: Record<string, unknown>): SQL | undefined {
  const conditions = Object.values(ctx.services).flatMap((s) => {
    const listed = (s as { listedOnPages?: ListedOnPages } | undefined)?.listedOnPages;
    return listed && Object.hasOwn(listed, entityId) ? [listed[entityId](table)] : [];
  });
  return conditions.length ? and(...conditions) : undefined;
}

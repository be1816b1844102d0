import { and, eq, inArray } from 'drizzle-orm';
import type { PluginContext } from '../../../runtime/plugin.js';

/** where one notification goes: a channel and the address on it (an email, a Telegram chat id) */
export interface Recipient {
  method: 'email' | 'telegram';
  to: string;
}

const key = (r: Recipient) => `${r.method}:${r.to.toLowerCase()}`;
export const uniqueRecipients = (list: Recipient[]) => [...new Map(list.map((r) => [key(r), r])).values()];

/**
 * The addresses of subjects, read from their identities: each email (email and password logins) and each
 * Telegram account (its chat id). A subject without either has none.
 */
export async function recipientsOf(ctx: PluginContext, subjectIds: string[]): Promise<Map<string, Recipient[]>> {
  const out = new Map<string, Recipient[]>(subjectIds.map((id) => [id, []]));
  if (!subjectIds.length || !ctx.database.tables['rbac/identity']) return out;
  const rel = ctx.database.tables['rbac/subjects-to-identities'];
  const t = ctx.database.tables['rbac/identity'];
  const rows: { subjectId: string; provider: string; email: string | null; account: string | null }[] = await ctx.database.db
    .select({ subjectId: rel.subjectId, provider: t.provider, email: t.email, account: t.account })
    .from(t)
    .innerJoin(rel, eq(rel.identityId, t.id))
    .where(inArray(rel.subjectId, subjectIds))
    .orderBy(t.createdAt, t.id);
  for (const r of rows) {
    const list = out.get(r.subjectId)!;
    if (r.email) list.push({ method: 'email', to: r.email });
    if (r.provider === 'telegram' && r.account) list.push({ method: 'telegram', to: r.account });
  }
  for (const [id, list] of out) out.set(id, uniqueRecipients(list));
  return out;
}

/** the subjects holding the role with this slug (the admins: 'admin') */
export async function subjectsWithRole(ctx: PluginContext, slug: string): Promise<string[]> {
  const roles = ctx.database.tables['rbac/role'];
  const rel = ctx.database.tables['rbac/subjects-to-roles'];
  if (!roles || !rel) return [];
  const rows: { id: string }[] = await ctx.database.db.select({ id: rel.subjectId }).from(rel).innerJoin(roles, eq(rel.roleId, roles.id)).where(and(eq(roles.slug, slug)));
  return [...new Set(rows.map((r) => r.id))];
}

/** the subscribers of a topic */
export async function subscribersOf(ctx: PluginContext, topicId: string): Promise<string[]> {
  const rel = ctx.database.tables['rbac/subjects-to-notification-module-topics'];
  const rows: { id: string }[] = await ctx.database.db.select({ id: rel.subjectId }).from(rel).where(eq(rel.notificationModuleTopicId, topicId)).orderBy(rel.orderIndex, rel.createdAt);
  return [...new Set(rows.map((r) => r.id))];
}

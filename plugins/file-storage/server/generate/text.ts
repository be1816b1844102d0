import type { PluginContext } from '../../../../runtime/plugin.js';
import type { Entity } from '../../../../engine/model.js';
import type { CardText } from './templates.js';
import { asc, eq } from 'drizzle-orm';

type Row = Record<string, unknown>;

/** the plain text of a rich-text value (TipTap JSON kept as a string, spec §5) or of plain text */
export function plainText(value: unknown): string {
  if (typeof value !== 'string') return '';
  try {
    const doc = JSON.parse(value) as unknown;
    const parts: string[] = [];
    const walk = (n: unknown) => {
      if (!n || typeof n !== 'object') return;
      const node = n as { type?: string; text?: string; content?: unknown[] };
      if (typeof node.text === 'string') parts.push(node.text);
      node.content?.forEach(walk);
      if (node.type === 'paragraph' || node.type === 'heading') parts.push(' ');
    };
    if (doc && typeof doc === 'object') {
      walk(doc);
      return parts.join('').replace(/\s+/g, ' ').trim();
    }
  } catch {
    /* plain text (spec §5: invalid rich text falls back to it) */
  }
  return value.replace(/\s+/g, ' ').trim();
}

/** a language map in the language, else the default language, else any; plain strings as they are */
export function inLanguage(value: unknown, language: string, fallback: string): string {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return '';
  const map = value as Record<string, string>;
  return map[language] || map[fallback] || Object.values(map).find(Boolean) || '';
}

/** what a card says about a row: its title, a description, the site's name and where it lives */
export async function cardText(ctx: PluginContext, entity: Entity, row: Row, language: string): Promise<CardText> {
  const def = ctx.model.defaultLanguage;
  const mt = ctx.database.tables['host/metadata'];
  const [site]: Row[] = mt ? await ctx.database.db.select({ title: mt.title }).from(mt).where(eq(mt.variant, 'primary')).orderBy(asc(mt.createdAt)).limit(1) : [];
  const title = inLanguage(row.title, language, def) || String(row.adminTitle ?? row.slug ?? entity.title);
  const description =
    entity.id === 'host/page'
      ? (row.description && row.description !== 'Description' ? String(row.description) : '')
      : plainText(inLanguage(row.shortDescription, language, def)) || plainText(inLanguage(row.subtitle, language, def)) || plainText(inLanguage(row.description, language, def));
  const host = new URL(ctx.config.publicUrl).host;
  const path = entity.id === 'host/page' ? String(row.url ?? '/') : typeof row.slug === 'string' ? `/${entity.module}/${entity.route}/${row.slug}` : '';
  return { title, description: description || undefined, siteName: (site?.title as string) || host, url: `${host}${path === '/' ? '' : path}`, kicker: entity.id === 'host/page' ? undefined : entity.title };
}

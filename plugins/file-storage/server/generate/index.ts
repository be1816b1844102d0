import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { eq, like } from 'drizzle-orm';
import { createElement } from 'react';
import { readBody } from '../../../../runtime/crud/body.js';
import { bodyValidator } from '../../../../runtime/crud/validate.js';
import { HttpError, badRequest } from '../../../../runtime/http/errors.js';
import { readQuery } from '../../../../runtime/http/query-params.js';
import { renderImage } from '../../../../runtime/image.js';
import type { PluginContext } from '../../../../runtime/plugin.js';
import type { FileStorageService } from '../store.js';
import { GENERATED } from './templates.js';
import { cardText } from './text.js';

type Row = Record<string, unknown>;

export const OG_VARIANT = 'generate-template-opengraph-image';
/** generated images of one visitor address per minute (only when one must be rendered; stored ones are free) */
const RENDER_LIMIT = { points: 30, duration: 60 };

const generateBody = bodyValidator<{ variant: string; entity: string; id: string; language?: string }>({
  type: 'object',
  additionalProperties: false,
  required: ['variant', 'entity', 'id'],
  properties: {
    variant: { enum: Object.keys(GENERATED) },
    entity: { type: 'string', pattern: '^[a-z][a-z0-9-]*/[a-z][a-z0-9-]*$' },
    id: { type: 'string', format: 'uuid' },
    language: { type: 'string', maxLength: 10 },
  },
});

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Generated images: a template variant rendered to PNG without a browser (runtime/image.ts) from a public row
 * and stored as a file row of that variant. One row per (variant, entity, row, language) and content: its slug
 * is `<prefix of the target>-<hash of what it shows>`, so a stored image is found again while its row is
 * unchanged, and the previous one is deleted when a new one replaces it.
 */
export function generator(ctx: PluginContext, service: () => FileStorageService) {
  const files = ctx.model.byId['file-storage/file'];
  const t = () => ctx.database.tables['file-storage/file'];

  async function target(entityId: string, id: string, variant: string) {
    const entity = ctx.model.byId[entityId];
    const spec = GENERATED[variant];
    if (!entity) throw badRequest(`entity: no entity ${entityId}`, [{ field: 'entity', rule: 'reference', message: `no entity ${entityId}` }]);
    // a generated file is public: it may show public rows only
    if (entity.access !== 'public') throw badRequest(`entity: ${entityId} is not public; its rows may not be shown in a public image`, [{ field: 'entity', rule: 'access', message: 'the entity must be public' }]);
    if (spec.entities && !spec.entities.includes(entityId)) throw badRequest(`entity: ${variant} is for ${spec.entities.join(', ')}`, [{ field: 'entity', rule: 'enum', message: `must be one of: ${spec.entities.join(', ')}` }]);
    const row = await ctx.repo.get(entity, id);
    if (!row) throw new HttpError(404, `No ${entityId} with id ${id}`);
    // only what everyone may read goes into a public image
    const shown = ctx.repo.publicColumns(entity);
    return { entity, row: Object.fromEntries(Object.entries(row).filter(([k]) => Object.hasOwn(shown, k))), spec };
  }

  /** the stored image of a row as it is now, rendered and stored when there is none */
  async function imageOf(variant: string, entityId: string, id: string, language: string, beforeRender?: () => Promise<void>): Promise<{ row: Row; created: boolean }> {
    const { entity, row, spec } = await target(entityId, id, variant);
    const lang = ctx.model.languages.includes(language) ? language : ctx.model.defaultLanguage;
    const text = await cardText(ctx, entity, row, lang);
    const prefix = `gen-${hash(`${variant}:${entityId}:${id}:${lang}`).slice(0, 16)}`;
    const slug = `${prefix}-${hash(JSON.stringify(text)).slice(0, 12)}`;
    const [stored]: Row[] = await ctx.database.db.select().from(t()).where(like(t().slug, `${prefix}-%`));
    const current = stored?.slug === slug ? stored : undefined;
    if (current) return { row: current, created: false };
    await beforeRender?.();
    const png = await renderImage(createElement(spec.Card, text), { width: spec.width, height: spec.height });
    let made: Row;
    let file: string | undefined;
    try {
      made = await ctx.database.transaction(async (tx) => {
        const stored = await service().store({ bytes: png, name: `${text.title} (${variant.replace('generate-template-', '')})`, alt: text.title }, tx);
        file = stored.file as string;
        return ctx.repo.update(files, stored.id as string, { slug, variant, alt: { [lang]: text.title } }, tx);
      });
    } catch (e) {
      if (file) await service().driver.remove(file).catch(() => undefined);
      // the same image made at the same moment by another request: that one stands
      const [other]: Row[] = await ctx.database.db.select().from(t()).where(eq(t().slug, slug));
      if (other) return { row: other, created: false };
      throw e;
    }
    // the images of this row's earlier content go, with their objects
    const old: Row[] = await ctx.database.db.select({ id: t().id, slug: t().slug }).from(t()).where(like(t().slug, `${prefix}-%`));
    for (const o of old) if (o.id !== made.id) await ctx.repo.delete(files, o.id as string).catch(() => undefined);
    return { row: made, created: true };
  }

  return {
    imageOf,
    /** where a page's or a row's OpenGraph image is served (absolute, for og:image): made on first use */
    openGraphImageUrl: (entityId: string, id: string, language: string) =>
      `${ctx.config.publicUrl}/api/file-storage/files/opengraph-image?${new URLSearchParams({ entity: entityId, id, language })}`,
  };
}

export function generateRoutes(app: Hono, ctx: PluginContext, service: () => FileStorageService, gen: ReturnType<typeof generator>) {
  const files = ctx.model.byId['file-storage/file'];
  const limited = ctx.rateLimit('generated-image', RENDER_LIMIT);

  /** POST /api/file-storage/files/generate `{ data: { variant, entity, id, language? } }`: renders and stores it (file writers) */
  app.post('/api/file-storage/files/generate', async (c) => {
    await ctx.authorize(c, { entity: files, operation: 'create' });
    const body = generateBody((await readBody(c)).data);
    // a language the site has not: refused by name (it was drawn in the default language, as if asked for)
    if (body.language !== undefined && !ctx.model.languages.includes(body.language)) {
      const message = `language must be one of: ${ctx.model.languages.join(', ')}`;
      throw badRequest(message, [{ field: 'language', rule: 'enum', message }]);
    }
    const { row, created } = await gen.imageOf(body.variant, body.entity, body.id.toLowerCase(), body.language ?? ctx.model.defaultLanguage);
    return c.json({ data: row }, created ? 201 : 200);
  });

  /**
   * GET /api/file-storage/files/opengraph-image?entity=&id=&language= (public: what og:image names): redirects to
   * the stored image of the row as it is now, rendering it first when there is none (limited per address).
   */
  app.get('/api/file-storage/files/opengraph-image', async (c) => {
    const q = readQuery(c.req.query(), { entity: { kind: 'text', required: true }, id: { kind: 'text', required: true, uuid: true }, language: { kind: 'text' } });
    const { row } = await gen.imageOf(OG_VARIANT, q.entity, q.id.toLowerCase(), q.language ?? ctx.model.defaultLanguage, () => limited(c));
    const url = service().publicUrl(row.file as string);
    return c.redirect(url.startsWith('/') ? `${ctx.config.publicUrl}${url}` : url, 302);
  });
}

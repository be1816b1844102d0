import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { and, eq, like, or } from 'drizzle-orm';
import { createElement } from 'react';
import { readBody } from '../../../../runtime/crud/body.js';
import { bodyValidator } from '../../../../runtime/crud/validate.js';
import { HttpError, badRequest } from '../../../../runtime/http/errors.js';
import { readQuery } from '../../../../runtime/http/query-params.js';
import { renderImage } from '../../../../runtime/image.js';
import type { PluginContext } from '../../../../runtime/plugin.js';
import type { HookSet } from '../../../../runtime/crud/hooks.js';
import { listedWhere } from '../../../../runtime/listed.js';
import { etagMatches } from '../../../../runtime/http/wire.js';
import type { FileStorageService } from '../store.js';
import type { ImageCache } from './cache.js';
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
/** the slug prefix of the file rows `POST …/generate` makes for one (variant, row, language) */
const filePrefix = (variant: string, entityId: string, id: string, language: string) => `gen-${hash(`${variant}:${entityId}:${id}:${language}`).slice(0, 16)}`;

/**
 * Generated images: a template variant rendered to PNG without a browser (runtime/image.ts) from a public row that is
 * one of the site's pages (runtime/listed.ts: not a visitor's anonymous subject), from what everyone may read of it.
 * - `openGraph`, what og:image names (public): a cache (cache.ts), one object per (row, language) holding the
 *   version it shows, and no file row; an anonymous visitor made a file row and a stored PNG per subject it minted (F05).
 * - `imageOf`, `POST …/generate` (file writers): a file row of that variant, one per (variant, row, language) and
 *   content: its slug is `<prefix of the target>-<hash of what it shows>`, so a stored image is found again while
 *   its row is unchanged, and the previous one is deleted when a new one replaces it.
 * Deleting a row removes both (`generatedHooks`).
 */
export function generator(ctx: PluginContext, service: () => FileStorageService, cache: ImageCache) {
  const files = ctx.model.byId['file-storage/file'];
  const t = () => ctx.database.tables['file-storage/file'];

  /**
   * whether the row exists and is one of the site's pages (a module may narrow which: listedOnPages); `exists` says the
   * row was just read, so that only a narrowed entity costs a query
   */
  async function listed(entityId: string, id: string, exists = false): Promise<boolean> {
    const table = ctx.database.tables[entityId];
    const narrowed = listedWhere(ctx, entityId, table);
    if (exists && !narrowed) return true;
    const [found] = await ctx.database.db.select({ id: table.id }).from(table).where(and(eq(table.id, id), narrowed)).limit(1);
    return !!found;
  }

  async function target(entityId: string, id: string, variant: string) {
    const entity = Object.hasOwn(ctx.model.byId, entityId) ? ctx.model.byId[entityId] : undefined;
    const spec = GENERATED[variant];
    if (!entity) throw badRequest(`entity: no entity ${entityId}`, [{ field: 'entity', rule: 'reference', message: `no entity ${entityId}` }]);
    // a generated file is public: it may show public rows only
    if (entity.access !== 'public') throw badRequest(`entity: ${entityId} is not public; its rows may not be shown in a public image`, [{ field: 'entity', rule: 'access', message: 'the entity must be public' }]);
    if (spec.entities && !spec.entities.includes(entityId)) throw badRequest(`entity: ${variant} is for ${spec.entities.join(', ')}`, [{ field: 'entity', rule: 'enum', message: `must be one of: ${spec.entities.join(', ')}` }]);
    const row = await ctx.repo.get(entity, id);
    // a row that is no page of the site (an anonymous visitor's subject) has no image, as if it were not there
    if (!row || !(await listed(entityId, id, true))) throw new HttpError(404, `No ${entityId} with id ${id}`);
    // only what everyone may read goes into a public image
    const shown = ctx.repo.publicColumns(entity);
    return { entity, row: Object.fromEntries(Object.entries(row).filter(([k]) => Object.hasOwn(shown, k))), spec };
  }

  /** what a variant draws of a row in a language, and the version that names it (the text and the template's code) */
  async function drawing(variant: string, entityId: string, id: string, language: string) {
    const { entity, row, spec } = await target(entityId, id, variant);
    const lang = ctx.model.languages.includes(language) ? language : ctx.model.defaultLanguage;
    const text = await cardText(ctx, entity, row, lang);
    const version = hash(JSON.stringify([variant, lang, spec.width, spec.height, hash(spec.Card.toString()), text])).slice(0, 32);
    const render = () => renderImage(createElement(spec.Card, text), { width: spec.width, height: spec.height });
    return { lang, text, spec, version, render };
  }

  /** the OpenGraph image of a row as it is now, from the cache; `beforeRender` (a rate limit) runs only when one is drawn */
  async function openGraph(entityId: string, id: string, language: string, beforeRender: () => Promise<void>) {
    const d = await drawing(OG_VARIANT, entityId, id, language);
    return {
      version: d.version,
      bytes: () =>
        cache.image(`${OG_VARIANT}:${entityId}:${id}:${d.lang}`, d.version, async () => (await beforeRender(), d.render()), () => listed(entityId, id)),
    };
  }

  /** the stored image of a row as it is now, rendered and stored when there is none */
  async function imageOf(variant: string, entityId: string, id: string, language: string): Promise<{ row: Row; created: boolean }> {
    const { lang, text, render } = await drawing(variant, entityId, id, language);
    const prefix = filePrefix(variant, entityId, id, lang);
    const slug = `${prefix}-${hash(JSON.stringify(text)).slice(0, 12)}`;
    const [stored]: Row[] = await ctx.database.db.select().from(t()).where(like(t().slug, `${prefix}-%`));
    const current = stored?.slug === slug ? stored : undefined;
    if (current) return { row: current, created: false };
    const png = await render();
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

  /**
   * Everything generated for a deleted row: its cached OpenGraph images and the file rows `POST …/generate` made
   * (their objects go with them, the file hook). Only public entities have any.
   */
  async function forget(entityId: string, id: string) {
    await Promise.all(ctx.model.languages.map((lang) => cache.remove(`${OG_VARIANT}:${entityId}:${id}:${lang}`)));
    const prefixes = Object.keys(GENERATED).flatMap((variant) => ctx.model.languages.map((lang) => filePrefix(variant, entityId, id, lang)));
    const made: Row[] = await ctx.database.db.select({ id: t().id }).from(t()).where(or(...prefixes.map((p) => like(t().slug, `${p}-%`))));
    for (const f of made) await ctx.repo.delete(files, f.id as string).catch((err) => ctx.log.warn({ err, file: f.id }, 'file-storage: a generated file was not removed'));
  }

  return {
    imageOf,
    openGraph,
    forget,
    /** where a page's or a row's OpenGraph image is served (absolute, for og:image): made on first use */
    openGraphImageUrl: (entityId: string, id: string, language: string) =>
      `${ctx.config.publicUrl}/api/file-storage/files/opengraph-image?${new URLSearchParams({ entity: entityId, id, language })}`,
  };
}

/** a deleted row of a public entity takes what was generated for it along (a '*' hook: any module's entity may have some) */
export function generatedHooks(ctx: PluginContext, gen: () => ReturnType<typeof generator>): HookSet {
  return {
    '*': {
      async afterCommit({ entity, operation, row }) {
        if (operation !== 'delete' || entity.access !== 'public' || entity.id === 'file-storage/file') return;
        await gen().forget(entity.id, row.id as string);
      },
    },
  };
}

export function generateRoutes(app: Hono, ctx: PluginContext, gen: ReturnType<typeof generator>) {
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
   * GET /api/file-storage/files/opengraph-image?entity=&id=&language= (public: what og:image names): the PNG of the
   * row as it is now, from the cache, drawn when the cache does not hold this version (limited per address). Its ETag
   * is the version, so a crawler asking again gets a 304 without a read of the store.
   */
  app.get('/api/file-storage/files/opengraph-image', async (c) => {
    const q = readQuery(c.req.query(), { entity: { kind: 'text', required: true }, id: { kind: 'text', required: true, uuid: true }, language: { kind: 'text' } });
    const image = await gen.openGraph(q.entity, q.id.toLowerCase(), q.language ?? ctx.model.defaultLanguage, () => limited(c));
    const headers = {
      etag: `"${image.version}"`,
      'cache-control': 'public, max-age=600',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cross-origin-resource-policy': 'cross-origin',
    };
    if (etagMatches(c.req.header('if-none-match'), headers.etag)) return c.body(null, 304, headers);
    const bytes = await image.bytes();
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { ...headers, 'content-type': 'image/png', 'content-length': String(bytes.length) });
  });
}

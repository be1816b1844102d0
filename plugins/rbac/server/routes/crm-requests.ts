import type { Hono } from 'hono';
import { eq, or } from 'drizzle-orm';
import { readBody } from '../../../../runtime/crud/body.js';
import { UUID_RE } from '../../../../engine/fields/index.js';
import { HttpError, badRequest } from '../../../../runtime/http/errors.js';
import type { CrmService } from '../../../crm/server/index.js';
import { requireSelf } from '../principal.js';
import type { RouteDeps } from './authentication.js';

/**
 * POST /api/rbac/subjects/:id/crm-module/form/request (spec §7): a signed-in subject sends a form.
 * The body is the form's fields plus `formId`; the crm service checks them exactly as it checks a
 * visitor's form (unknown fields refused, required inputs present, values of their types) and stores
 * the request, which is linked to the subject in the same transaction. Only the subject itself (or an
 * admin, or the system) may send as the subject; posts count against the form's per-address limit.
 */
export function crmRequestRoutes(app: Hono, { ctx, accounts }: RouteDeps) {
  const link = ctx.model.byId['rbac/subjects-to-crm-module-requests'];
  app.post('/api/rbac/subjects/:id/crm-module/form/request', async (c) => {
    const crm = ctx.services.crm as CrmService | undefined;
    if (!crm) throw new HttpError(404, 'The crm module is not installed');
    // the same per-address budget as the visitor's form, before anything is looked up or parsed
    await crm.limit(c);
    const subjectId = (c.req.param('id') ?? '').toLowerCase();
    if (!UUID_RE.test(subjectId)) throw badRequest('id must be a UUID', [{ field: 'id', rule: 'format', message: 'id must be a UUID' }]);
    await requireSelf(c, ctx, accounts, subjectId);
    const { formId, ...fields } = await crm.readFields(c);
    if (formId === undefined || formId === null || formId === '') throw badRequest('formId is required', [{ field: 'formId', rule: 'required', message: 'formId is required' }]);
    if (typeof formId !== 'string') throw badRequest('formId must be a UUID', [{ field: 'formId', rule: 'format', message: 'formId must be a UUID' }]);
    await ctx.repo.getOrThrow(ctx.model.byId['rbac/subject'], subjectId);
    const request = await crm.submitRequest(formId, fields, {
      referer: c.req.header('referer'),
      within: (tx, requestId) => ctx.repo.create(link, { subjectId, crmModuleRequestId: requestId }, tx),
    });
    return c.json({ data: request }, 201);
  });

  /**
   * POST /api/rbac/subjects/:id/crm-module/form/:formId/request: the reference client's shape,
   * `{ steps: [{ inputs: [{ id, slug, value }] }] }`. Each value is read by its input's slug (or, given only
   * an id, by that input's name or slug), then the same checks and storage as the flat form above.
   */
  app.post('/api/rbac/subjects/:id/crm-module/form/:formId/request', async (c) => {
    const crm = ctx.services.crm as CrmService | undefined;
    if (!crm) throw new HttpError(404, 'The crm module is not installed');
    await crm.limit(c);
    const subjectId = (c.req.param('id') ?? '').toLowerCase();
    const formId = (c.req.param('formId') ?? '').toLowerCase();
    if (!UUID_RE.test(subjectId)) throw badRequest('id must be a UUID', [{ field: 'id', rule: 'format', message: 'id must be a UUID' }]);
    if (!UUID_RE.test(formId)) throw badRequest('formId must be a UUID', [{ field: 'formId', rule: 'format', message: 'formId must be a UUID' }]);
    await requireSelf(c, ctx, accounts, subjectId);
    const data = (await readBody(c)).data as { steps?: unknown } | undefined;
    if (!data || typeof data !== 'object' || !Array.isArray(data.steps)) throw badRequest('steps is required', [{ field: 'steps', rule: 'required', message: 'steps must be a list of { inputs: [{ id, slug, value }] }' }]);
    const fields: Record<string, unknown> = {};
    const inputs = ctx.database.tables['crm/input'];
    for (const [i, step] of data.steps.entries()) {
      const list = (step as { inputs?: unknown })?.inputs;
      if (!Array.isArray(list)) throw badRequest(`steps[${i}].inputs must be a list`, [{ field: `steps[${i}].inputs`, rule: 'type', message: 'inputs must be a list' }]);
      for (const [j, input] of list.entries()) {
        const at = `steps[${i}].inputs[${j}]`;
        const { id, slug, value } = (input ?? {}) as { id?: unknown; slug?: unknown; value?: unknown };
        // the input named by its slug (or name), else by its id; the form's check reads it under name, else slug
        const bySlug = typeof slug === 'string' && slug ? or(eq(inputs.slug, slug), eq(inputs.name, slug)) : undefined;
        const byId = typeof id === 'string' && UUID_RE.test(id) ? eq(inputs.id, id.toLowerCase()) : undefined;
        if (!bySlug && !byId) throw badRequest(`${at} needs a slug or the id of an input`, [{ field: `${at}.slug`, rule: 'required', message: 'slug or id is required' }]);
        const [row] = await ctx.database.db.select({ name: inputs.name, slug: inputs.slug }).from(inputs).where(bySlug ?? byId).limit(1);
        // an input the form does not have is passed on under the name given: kept as text (a CRM form accepts any fields)
        const key = row ? row.name || row.slug : String(slug ?? id);
        fields[key] = value;
      }
    }
    await ctx.repo.getOrThrow(ctx.model.byId['rbac/subject'], subjectId);
    const request = await crm.submitRequest(formId, fields, {
      referer: c.req.header('referer'),
      within: (tx, requestId) => ctx.repo.create(link, { subjectId, crmModuleRequestId: requestId }, tx),
    });
    return c.json({ data: request }, 201);
  });
}

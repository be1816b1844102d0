import type { Hono } from 'hono';
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
}

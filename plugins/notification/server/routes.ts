import type { Context, Hono } from 'hono';
import { UUID_RE } from '../../../engine/fields/index.js';
import { readBody } from '../../../runtime/crud/body.js';
import { bodyValidator } from '../../../runtime/crud/validate.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { NotificationService } from './service.js';
import { SENDABLE_TEMPLATES, templates } from './templates/index.js';

/** what an admin sends to a topic's subscribers (or, through the accounts module, to one subject) */
export const notifyBody = bodyValidator<{ title: string; text: string; template?: string; data?: Record<string, unknown>; sendAfter?: string }>({
  type: 'object',
  additionalProperties: false,
  required: ['title', 'text'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    text: { type: 'string', minLength: 1, maxLength: 20000 },
    template: { enum: SENDABLE_TEMPLATES },
    data: { type: 'object' },
    sendAfter: { type: 'string', format: 'date-time' },
  },
});

/** each template's `data`, checked as the body's (so a cause names `data.orderId`) */
const dataChecks = Object.fromEntries(
  SENDABLE_TEMPLATES.filter((v) => templates[v].data).map((v) => [v, bodyValidator({ type: 'object', required: ['data'], properties: { data: templates[v].data } })]),
);

/** a notify body whose data is what its template draws: a template with no data rules takes none */
export function checkNotify(body: ReturnType<typeof notifyBody>): ReturnType<typeof notifyBody> {
  const template = body.template ?? 'default';
  const check = dataChecks[template];
  if (check) check({ data: body.data });
  else if (body.data !== undefined && Object.keys(body.data).length) {
    const message = `data is not used by the '${template}' template`;
    throw badRequest(message, [{ field: 'data', rule: 'unknown', message }]);
  }
  return body;
}

/** the caller may POST to this path by the route permissions (admins and the system always may) */
async function requirePermission(ctx: PluginContext, c: Context) {
  if (await ctx.permits(c, 'POST', c.req.path)) return;
  const caller = await ctx.caller(c);
  throw new HttpError(caller.kind === 'anonymous' ? 401 : 403, 'Not authorized');
}

export function notificationRoutes(app: Hono, ctx: PluginContext, service: NotificationService) {
  const topic = ctx.model.byId['notification/topic'];

  /** POST /api/notification/topics/{id}/notify: to every subscriber of the topic, on each of their channels */
  app.post('/api/notification/topics/:id/notify', async (c) => {
    await requirePermission(ctx, c);
    const id = (c.req.param('id') ?? '').toLowerCase();
    if (!UUID_RE.test(id)) throw badRequest('id must be a UUID', [{ field: 'id', rule: 'format', message: 'id must be a UUID' }]);
    await ctx.repo.getOrThrow(topic, id);
    const body = checkNotify(notifyBody((await readBody(c)).data));
    const sent = await service.toTopic(id, { subject: body.title, text: body.text, template: body.template, data: body.data, sendAfter: body.sendAfter });
    return c.json({ data: sent });
  });
}

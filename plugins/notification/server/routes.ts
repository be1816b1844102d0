import type { Context, Hono } from 'hono';
import { UUID_RE } from '../../../engine/fields/index.js';
import { readBody } from '../../../runtime/crud/body.js';
import { bodyValidator } from '../../../runtime/crud/validate.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { NotificationService } from './service.js';
import { TEMPLATE_VARIANTS } from './templates/index.js';

/** what an admin sends to a topic's subscribers (or, through the accounts module, to one subject) */
export const notifyBody = bodyValidator<{ title: string; text: string; template?: string; data?: Record<string, unknown>; sendAfter?: string }>({
  type: 'object',
  additionalProperties: false,
  required: ['title', 'text'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    text: { type: 'string', minLength: 1, maxLength: 20000 },
    template: { enum: TEMPLATE_VARIANTS },
    data: { type: 'object' },
    sendAfter: { type: 'string', format: 'date-time' },
  },
});

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
    const body = notifyBody((await readBody(c)).data);
    const sent = await service.toTopic(id, { subject: body.title, text: body.text, template: body.template, data: body.data, sendAfter: body.sendAfter });
    return c.json({ data: sent });
  });
}

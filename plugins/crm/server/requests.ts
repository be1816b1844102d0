import type { Context, Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { UUID_RE } from '../../../engine/fields/index.js';
import { readBody } from '../../../runtime/crud/body.js';
import { HttpError, badRequest, type Cause } from '../../../runtime/http/errors.js';
import { assertNoNul, bodyOverflowed, MAX_JSON_DEPTH, scanJson, tooLarge } from '../../../runtime/http/limits.js';
import type { Limit } from '../../../runtime/http/rate-limit.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { NotificationService } from '../../notification/server/index.js';
import type { HookSet } from '../../../runtime/crud/hooks.js';

/** bounds of one request: values are text of at most MAX_VALUE characters, at most MAX_FIELDS fields in the body */
export const MAX_VALUE = 5000;
export const MAX_FIELDS = 50;
/** form posts per client address: a visitor sends a form once or twice, a script sends thousands */
export const DEFAULT_FORM_LIMIT: Limit = { points: 10, duration: 600 };

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The submitted fields: JSON {"data": {...}}, or a form (urlencoded or multipart) whose string parts
 * are the fields; a multipart 'data' part holding a JSON object (the platform's convention) is used as is.
 * Files are ignored.
 */
async function readFields(c: Context): Promise<Fields> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  const multipart = type.startsWith('multipart/form-data');
  if (multipart || type.startsWith('application/x-www-form-urlencoded')) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      if (bodyOverflowed(c)) throw tooLarge(c.get('bodyLimit'));
      throw badRequest('The form body could not be read');
    }
    for (const value of Object.values(form)) for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') assertNoNul(v);
    if (multipart && typeof form.data === 'string') {
      const problem = scanJson(form.data);
      if (problem) throw badRequest(problem === 'depth' ? `The data part nests deeper than ${MAX_JSON_DEPTH} levels` : 'NUL characters are not accepted');
      try {
        const parsed: unknown = JSON.parse(form.data);
        if (isObject(parsed)) return parsed;
      } catch {
        /* a field that happens to be called 'data' */
      }
    }
    const out: Fields = Object.create(null);
    for (const [key, value] of Object.entries(form)) {
      const strings = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
      if (strings.length) out[key] = strings.length === 1 ? strings[0] : strings;
    }
    return out;
  }
  const { data } = await readBody(c);
  if (data === undefined || data === null) throw badRequest('No data');
  if (!isObject(data)) throw badRequest('data must be an object of fields', [{ field: 'data', rule: 'type', message: 'data must be an object' }]);
  return data;
}

/** a submitted value as text: strings as they are, numbers and booleans written out, a list joined with ', ' */
function toText(key: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) return value.map(String).join(', ');
  throw badRequest(`${key} must be text`, [{ field: key, rule: 'type', message: `${key} must be text` }]);
}

/** the path of the page the form was sent from, when the browser says */
function sourcePath(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).pathname.slice(0, 2000);
  } catch {
    return undefined;
  }
}

/**
 * POST /api/crm/forms/:id/requests (spec §7), public: stores what a visitor sent through a form as a
 * crm/request linked to the form, keeping only the form's own inputs, and emails the admins.
 * Limited per client address before anything is looked up or parsed.
 */
export function requestRoutes(app: Hono, ctx: PluginContext, formLimit: Limit = DEFAULT_FORM_LIMIT) {
  const limited = ctx.rateLimit('crm-form', formLimit);
  const form = ctx.model.byId['crm/form'];
  const input = ctx.model.byId['crm/input'];
  const request = ctx.model.byId['crm/request'];
  const formsToRequests = ctx.model.byId['crm/forms-to-requests'];
  const formsToInputs = ctx.database.tables['crm/forms-to-inputs'];
  const inputs = ctx.database.tables['crm/input'];

  /** the form's inputs: the key each is submitted under (name, else slug) and whether it is required */
  async function inputsOf(formId: string): Promise<{ key: string; required: boolean }[]> {
    const rows: { name: string | null; slug: string; isRequired: boolean | null }[] = await ctx.database.db
      .select({ name: inputs.name, slug: inputs.slug, isRequired: inputs.isRequired })
      .from(formsToInputs)
      .innerJoin(inputs, eq(formsToInputs.inputId, inputs.id))
      .where(eq(formsToInputs.formId, formId))
      .orderBy(formsToInputs.orderIndex, formsToInputs.createdAt);
    return rows.map((r) => ({ key: r.name || r.slug, required: Boolean(r.isRequired) }));
  }

  app.post('/api/crm/forms/:id/requests', async (c) => {
    await limited(c);
    const formId = (c.req.param('id') ?? '').toLowerCase();
    if (!UUID_RE.test(formId)) throw badRequest('id must be a UUID', [{ field: 'id', rule: 'format', message: 'id must be a UUID' }]);
    const formRow = await ctx.repo.get(form, formId);
    if (!formRow) throw new HttpError(404, `No crm/form with id ${formId}`);

    const raw = await readFields(c);
    if (Object.keys(raw).length > MAX_FIELDS) throw badRequest(`Too many fields: at most ${MAX_FIELDS}`);

    const fields: Record<string, string> = {};
    const causes: Cause[] = [];
    for (const { key, required } of await inputsOf(formId)) {
      const value = Object.hasOwn(raw, key) ? toText(key, raw[key]) : undefined;
      if (value !== undefined && value.length > MAX_VALUE) {
        causes.push({ field: key, rule: 'maxLength', message: `${key} must be at most ${MAX_VALUE} characters` });
      } else if (required && (value === undefined || value.trim() === '')) {
        causes.push({ field: key, rule: 'required', message: `${key} is required` });
      } else if (value !== undefined) {
        fields[key] = value;
      }
    }
    if (causes.length) throw badRequest(causes.length === 1 ? causes[0].message : causes.map((x) => x.message).join('; '), causes);

    const sourceUrl = sourcePath(c.req.header('referer'));
    const requestId = await ctx.database.transaction(async (tx) => {
      const row = await ctx.repo.create(request, { payload: { fields, formId }, ...(sourceUrl && { sourceUrl }) }, tx);
      await ctx.repo.create(formsToRequests, { formId, requestId: row.id }, tx);
      return row.id as string;
    });
    return c.json({ data: { id: requestId } }, 201);
  });
}

/**
 * Every new crm/request, whoever made it, notifies the admins once it is committed (an entity hook, so that
 * requests made through the generic API or another plugin notify too): the notification module's
 * 'crm-form-request' template, to ADMIN_EMAILS and the subjects holding the admin role. Delivery is not awaited.
 */
export function requestHooks(ctx: PluginContext): HookSet {
  return {
    'crm/request': {
      async afterCommit({ operation, row }) {
        const notification = ctx.services.notification as NotificationService | undefined;
        if (operation !== 'create' || !notification) return;
        const payload = (row.payload ?? {}) as { fields?: Record<string, unknown>; formId?: string };
        const formRow = typeof payload.formId === 'string' && UUID_RE.test(payload.formId) ? await ctx.repo.get(ctx.model.byId['crm/form'], payload.formId) : undefined;
        const formTitle = (formRow?.title as Record<string, string> | null)?.en || String(formRow?.adminTitle ?? 'a form');
        notification
          .toAdmins({ template: 'crm-form-request', data: { formTitle, fields: payload.fields ?? {}, sourceUrl: row.sourceUrl ?? undefined, requestId: row.id } })
          .catch((e) => ctx.log.error({ err: e, request: row.id }, 'crm request notification failed'));
      },
    },
  };
}

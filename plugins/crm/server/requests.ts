import type { Context, Hono } from 'hono';
import { eq, inArray } from 'drizzle-orm';
import { UUID_RE } from '../../../engine/fields/index.js';
import { readBody, readForm } from '../../../runtime/crud/body.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import { jsonRefused, MAX_JSON_DEPTH, scanJson } from '../../../runtime/http/limits.js';
import type { Limit } from '../../../runtime/http/rate-limit.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { Drizzle } from '../../../runtime/db/database.js';
import type { NotificationService } from '../../notification/server/index.js';
import type { HookSet } from '../../../runtime/crud/hooks.js';
import { checkFields, type FormInput } from './check.js';

export { MAX_FIELDS, MAX_VALUE } from './check.js';

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
    // part names and values checked as every form's are (runtime/crud/body.ts)
    const form = await readForm(c, 'The form body could not be read');
    if (multipart && typeof form.data === 'string') {
      const problem = scanJson(form.data);
      if (problem === 'depth') throw badRequest(`The data part nests deeper than ${MAX_JSON_DEPTH} levels`);
      if (problem) throw jsonRefused(problem, form.data);
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

/** the path of the page the form was sent from, when the browser says */
function sourcePath(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).pathname.slice(0, 2000);
  } catch {
    return undefined;
  }
}

/** what other modules may ask of the crm module, as ctx.services.crm */
export interface CrmService {
  /** the per-address limit of form posts (429 once spent), shared by every route that stores a request: call it first */
  limit(c: Context): Promise<void>;
  /** the fields a request body holds: JSON {"data": {...}}, a form-encoded body, or multipart (its 'data' JSON part, else its text parts) */
  readFields(c: Context): Promise<Record<string, unknown>>;
  /**
   * Checks `raw` against the form's inputs (checkFields: any fields kept as text, required ones present,
   * values of their declared types) and stores it as a crm/request linked to the form. `within` runs in
   * the same transaction, so that a link it writes (the subject's) exists exactly when the request does.
   * `referer` (the page it was sent from) is kept as the request's sourceUrl path.
   * 404 for an unknown form, 400 naming each field and rule.
   */
  submitRequest(
    formId: string,
    raw: Record<string, unknown>,
    options?: { referer?: string; within?: (tx: Drizzle, requestId: string) => Promise<unknown> },
  ): Promise<{ id: string }>;
}

/** the crm service: the one place a request is checked and stored, whichever route it came through */
export function crmService(ctx: PluginContext, formLimit: Limit = DEFAULT_FORM_LIMIT): CrmService {
  const limit = ctx.rateLimit('crm-form', formLimit);
  const form = ctx.model.byId['crm/form'];
  const request = ctx.model.byId['crm/request'];
  const formsToRequests = ctx.model.byId['crm/forms-to-requests'];
  const formsToInputs = ctx.database.tables['crm/forms-to-inputs'];
  const inputs = ctx.database.tables['crm/input'];
  const inputsToOptions = ctx.database.tables['crm/inputs-to-options'];
  const options = ctx.database.tables['crm/option'];

  /** the form's inputs with the key each is submitted under (name, else slug), its type and its option values */
  async function inputsOf(formId: string): Promise<FormInput[]> {
    const rows: { id: string; name: string | null; slug: string; type: string | null; isRequired: boolean | null }[] = await ctx.database.db
      .select({ id: inputs.id, name: inputs.name, slug: inputs.slug, type: inputs.type, isRequired: inputs.isRequired })
      .from(formsToInputs)
      .innerJoin(inputs, eq(formsToInputs.inputId, inputs.id))
      .where(eq(formsToInputs.formId, formId))
      .orderBy(formsToInputs.orderIndex, formsToInputs.createdAt);
    const values: { inputId: string; value: string }[] = rows.length
      ? await ctx.database.db
        .select({ inputId: inputsToOptions.inputId, value: options.value })
        .from(inputsToOptions)
        .innerJoin(options, eq(inputsToOptions.optionId, options.id))
        .where(inArray(inputsToOptions.inputId, rows.map((r) => r.id)))
        .orderBy(inputsToOptions.orderIndex, inputsToOptions.createdAt)
      : [];
    return rows.map((r) => ({
      key: r.name || r.slug,
      type: r.type ?? 'default',
      required: Boolean(r.isRequired),
      options: values.filter((v) => v.inputId === r.id).map((v) => v.value),
    }));
  }

  return {
    limit: async (c) => {
      await limit(c);
    },
    readFields,
    async submitRequest(formId, raw, { referer, within } = {}) {
      const sourceUrl = sourcePath(referer);
      const id = formId.toLowerCase();
      if (!UUID_RE.test(id)) throw badRequest('formId must be a UUID', [{ field: 'formId', rule: 'format', message: 'formId must be a UUID' }]);
      if (!(await ctx.repo.get(form, id))) throw new HttpError(404, `No crm/form with id ${id}`);
      const fields = checkFields(await inputsOf(id), raw);
      const requestId = await ctx.database.transaction(async (tx) => {
        const row = await ctx.repo.create(request, { payload: { fields, formId: id }, ...(sourceUrl && { sourceUrl }) }, tx);
        await ctx.repo.create(formsToRequests, { formId: id, requestId: row.id }, tx);
        await within?.(tx, row.id as string);
        return row.id as string;
      });
      return { id: requestId };
    },
  };
}

/**
 * POST /api/crm/forms/:id/requests (spec §7), public: stores what a visitor sent through a form as a
 * crm/request linked to the form (checked by the crm service), and the hook emails the admins.
 * Limited per client address before anything is looked up or parsed.
 */
export function requestRoutes(app: Hono, ctx: PluginContext) {
  const crm = ctx.services.crm as CrmService;
  app.post('/api/crm/forms/:id/requests', async (c) => {
    await crm.limit(c);
    const formId = c.req.param('id') ?? '';
    if (!UUID_RE.test(formId)) throw badRequest('id must be a UUID', [{ field: 'id', rule: 'format', message: 'id must be a UUID' }]);
    const raw = await readFields(c);
    return c.json({ data: await crm.submitRequest(formId, raw, { referer: c.req.header('referer') }) }, 201);
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

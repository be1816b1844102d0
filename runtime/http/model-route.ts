import type { Hono } from 'hono';
import type { Model } from '../../engine/model.js';
import { bodySchema } from '../../engine/json-schema.js';
import { fieldTypes } from '../../engine/fields/index.js';
import { isPrivileged, isSignedIn, type Caller, type CallerOf } from './access.js';

/**
 * Whether the caller may read or write a field in general, for the admin to hide or disable it. 'owner'
 * depends on the row, so it counts as may: the server decides per row, and refuses with a 403 naming the field.
 */
function may(caller: Caller, roles: readonly string[] | undefined): boolean {
  if (!roles || isPrivileged(caller)) return true;
  return roles.some((r) => r === 'public' || (r === 'signed-in' && isSignedIn(caller)) || (caller.kind === 'subject' && (r === 'owner' || caller.roles.includes(r))));
}

/**
 * GET /api/admin/model: what the generic admin draws from — every entity with its fields, its
 * create and update JSON Schemas and its relations, and for each field whether the caller may read and
 * write it (from the manifest's field access). Admins, and roles given a permission for it.
 */
export function adminModel(model: Model) {
  return {
    languages: model.languages,
    defaultLanguage: model.defaultLanguage,
    modules: model.modules,
    entities: model.entities.map((e) => ({
      id: e.id, module: e.module, name: e.name, route: e.route, title: e.title, description: e.description,
      access: e.access, variants: e.variants, defaultVariant: e.defaultVariant, relation: e.relation ?? null,
      // how a subject owns rows (the admin shows an owner's rows owned through a relation, e.g. a subject's identities)
      owner: e.owner ?? null,
      fields: e.fields.map((f) => ({
        name: f.name, kind: f.kind, title: f.title, description: f.description, required: !!f.required, secret: !!f.secret,
        common: !!f.common, unique: !!f.unique, target: f.target, onDelete: f.onDelete, values: f.values, format: f.format, default: f.default,
        generate: f.generate, widget: fieldTypes[f.kind].widget, access: f.access ?? null,
      })),
      schemas: { create: bodySchema(e, model, 'create'), update: bodySchema(e, model, 'update') },
    })),
  };
}

export function modelRoute(app: Hono, model: Model, callerOf: CallerOf) {
  const body = adminModel(model);
  app.get('/api/admin/model', async (c) => {
    const caller = await callerOf(c);
    if (isPrivileged(caller)) return c.json({ data: body });
    const entities = body.entities.map((e) => ({
      ...e,
      fields: e.fields.map((f) => ({ ...f, readable: may(caller, f.access?.read), writable: may(caller, f.access?.write) })),
    }));
    return c.json({ data: { ...body, entities } });
  });
}

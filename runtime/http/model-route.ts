import type { Hono } from 'hono';
import type { Model } from '../../engine/model.js';
import { bodySchema } from '../../engine/json-schema.js';
import { fieldTypes } from '../../engine/fields/index.js';

/**
 * GET /api/admin/model: what the generic admin draws from — every entity with its fields, its
 * create and update JSON Schemas and its relations. Admins only (no permission opens it).
 */
export function modelRoute(app: Hono, model: Model) {
  const body = {
    languages: model.languages,
    defaultLanguage: model.defaultLanguage,
    modules: model.modules,
    entities: model.entities.map((e) => ({
      id: e.id, module: e.module, name: e.name, route: e.route, title: e.title, description: e.description,
      access: e.access, variants: e.variants, defaultVariant: e.defaultVariant, relation: e.relation ?? null,
      fields: e.fields.map((f) => ({
        name: f.name, kind: f.kind, title: f.title, description: f.description, required: !!f.required, secret: !!f.secret,
        common: !!f.common, unique: !!f.unique, target: f.target, values: f.values, format: f.format, default: f.default,
        generate: f.generate, widget: fieldTypes[f.kind].widget,
      })),
      schemas: { create: bodySchema(e, model, 'create'), update: bodySchema(e, model, 'update') },
    })),
  };
  app.get('/api/admin/model', (c) => c.json({ data: body }));
}

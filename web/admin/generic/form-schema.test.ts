import { describe, it, expect } from 'vitest';
import { causeInWords, editableFields, formSchema, isWritable } from './form-schema.js';
import { tableColumns } from './columns.js';
import type { EntityInfo, FieldInfo } from '../api.js';

const field = (name: string, extra: Partial<FieldInfo> = {}): FieldInfo => ({ name, kind: 'text', required: false, secret: false, common: false, unique: false, widget: 'text', ...extra });

/** an order as GET /api/admin/model describes it to an account that may not write the status nor read the note */
const order: EntityInfo = {
  id: 'ecommerce/order', module: 'ecommerce', name: 'order', route: 'orders', title: 'Order', access: 'private',
  variants: ['default'], defaultVariant: 'default', relation: null,
  fields: [
    field('id', { common: true }),
    field('status', { kind: 'enum', values: ['new', 'paying'], access: { write: ['admin'] }, readable: true, writable: false }),
    field('comment'),
    field('note', { access: { read: ['admin'] }, readable: false, writable: false }),
  ],
  schemas: {
    create: { properties: { status: { type: 'string', enum: ['new', 'paying'] }, comment: { type: ['string', 'null'] }, note: { type: ['string', 'null'] } } },
    update: { properties: { status: { type: 'string', enum: ['new', 'paying'] }, comment: { type: ['string', 'null'] }, note: { type: ['string', 'null'] } } },
  },
};

describe('the admin follows the field access of the manifest', () => {
  it('hides fields the account may not read, from forms and tables', () => {
    expect(editableFields(order).map((f) => f.name)).toEqual(['status', 'comment']);
    expect(tableColumns(order).map((f) => f.name)).not.toContain('note');
  });

  it('shows fields the account may not write as disabled', () => {
    const { schema, uiSchema } = formSchema(order, 'update');
    expect(Object.keys(schema.properties!)).toEqual(['status', 'comment']);
    expect(uiSchema.status).toMatchObject({ 'ui:disabled': true });
    expect(uiSchema.comment?.['ui:disabled']).toBeUndefined();
    expect(isWritable(order.fields[1])).toBe(false);
    expect(isWritable(order.fields[2])).toBe(true);
  });
});

describe('form titles', () => {
  it('the invoice form tells the provider (a choice) from the provider’s id (a text); a manifest title wins', async () => {
    const { entity, model } = await import('../test-utils.js');
    const invoice = entity('billing/invoice');
    const { schema } = formSchema(invoice, 'update', model());
    const props = schema.properties as Record<string, { title?: string }>;
    expect(props.provider!.title).toBe('Provider');
    expect(props.providerId!.title).toBe('Provider ID');
    const titled = { ...invoice, fields: invoice.fields.map((f) => (f.name === 'providerId' ? { ...f, title: 'Payment id at the provider' } : f)) };
    expect((formSchema(titled, 'update', model()).schema.properties as Record<string, { title?: string }>).providerId!.title).toBe('Payment id at the provider');
  });
});

describe('server causes in words', () => {
  it('put the field’s label in place of its raw name', () => {
    expect(causeInWords('url is already taken', 'url', 'URL')).toBe('URL is already taken');
    expect(causeInWords('title.en is required', 'title', 'Title')).toBe('Title (EN) is required');
    expect(causeInWords('urls are fine', 'url', 'URL')).toBe('urls are fine');
    expect(causeInWords('Required', 'url', 'URL')).toBe('Required');
    expect(causeInWords('slug is already taken', undefined, 'Slug')).toBe('slug is already taken');
  });
});

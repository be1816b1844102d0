import { describe, expect, it } from 'vitest';
import { describePattern, enumLabel, errorInWords, fieldTitle, humanize, moduleTitle, plural, polymorphicTarget, relationsOf, relationTitle, shortId, slugify } from './labels.js';
import { labelOf } from './api.js';
import { entity, model } from './test-utils.js';

describe('names in words, from the model', () => {
  it('humanizes field names, enum values and modules', () => {
    expect(['adminTitle', 'createdAt', 'mimeType', 'sourceUrl', 'isDefault', 'orderIndex'].map(humanize)).toEqual(['Admin title', 'Created at', 'MIME type', 'Source URL', 'Is default', 'Order index']);
    expect(enumLabel('one_off')).toBe('One off');
    expect(enumLabel('ethereum_virtual_machine')).toBe('Ethereum virtual machine');
    expect(['file-storage', 'website-builder', 'rbac', 'crm'].map(moduleTitle)).toEqual(['File storage', 'Website builder', 'RBAC', 'CRM']);
  });

  it('names a reference after what it points at, keeping a prefix that says more', () => {
    const m = model();
    const field = (e: string, f: string) => entity(e).fields.find((x) => x.name === f)!;
    expect(fieldTitle(field('blog/articles-to-website-builder-module-widgets', 'websiteBuilderModuleWidgetId'), m)).toBe('Widget');
    expect(fieldTitle(field('ecommerce/categories-to-products', 'categoryId'), m)).toBe('Category');
    expect(fieldTitle(field('host/widgets-to-external-widgets', 'externalWidgetId'), m)).toBe('External widget');
    expect(fieldTitle(field('ecommerce/product', 'adminTitle'), m)).toBe('Admin title');
    // a text id of another system is not a reference: it keeps its 'ID', and differs from the enum beside it
    expect(fieldTitle(field('billing/invoice', 'providerId'), m)).toBe('Provider ID');
    expect(fieldTitle(field('billing/invoice', 'provider'), m)).toBe('Provider');
    expect(fieldTitle(field('billing/webhook-event', 'eventId'), m)).toBe('Event ID');
  });

  it('plurals, and short ids that tell demo ids apart', () => {
    expect(['Category', 'Widget', 'Metadata', 'Pages to layouts', 'Identity', 'Box'].map(plural)).toEqual(['Categories', 'Widgets', 'Metadata', 'Pages to layouts', 'Identities', 'Boxes']);
    const a = shortId('7a2d3b50-0000-4000-8000-000000000501');
    const b = shortId('7a2d3b50-0000-4000-8000-000000000502');
    expect(a).not.toBe(b);
    expect(a).toBe('7a2d3b50…0501');
  });

  it('titles a relation by its far entity, naming the far module when it differs', () => {
    const m = model();
    const product = entity('ecommerce/product');
    const titles = relationsOf(m, product).map((r) => relationTitle(r, product));
    expect(titles).toEqual(expect.arrayContaining(['Categories', 'Attributes', 'Stores', 'Files (File storage)', 'Widgets (Website builder)']));
    const page = entity('host/page');
    expect(relationsOf(m, page).map((r) => relationTitle(r, page))).toEqual(expect.arrayContaining(['Layouts', 'Metadata', 'Widgets']));
  });

  it('finds the polymorphic reference of a module field and an id field', () => {
    const e = entity('host/widgets-to-external-widgets');
    expect(polymorphicTarget(e, e.fields.find((f) => f.name === 'externalWidgetId')!)).toEqual({ moduleField: 'externalModule', name: 'widget' });
    expect(polymorphicTarget(e, e.fields.find((f) => f.name === 'widgetId')!)).toBeUndefined();
  });

  it('labels a row by admin title, title in the language, name or email, slug, then id', () => {
    expect(labelOf({ id: 'x', adminTitle: 'Admin', title: { en: 'T' } })).toBe('Admin');
    expect(labelOf({ id: 'x', title: { en: 'Lamp', ru: 'Лампа' } }, 'ru')).toBe('Лампа');
    expect(labelOf({ id: 'x', title: { ru: 'Лампа' } }, 'en')).toBe('Лампа');
    expect(labelOf({ id: 'x', email: 'a@b.c', slug: 's' })).toBe('a@b.c');
    expect(labelOf({ id: 'x', slug: 's' })).toBe('s');
    expect(labelOf({ id: 'x' })).toBe('x');
  });
});

describe('validation in words', () => {
  it('says the manifests’ patterns in words', () => {
    expect(describePattern('^[a-z0-9-]+$')).toBe('Use only lowercase letters, digits and hyphens');
    expect(describePattern('^[a-z]{2}$')).toBe('Use 2 lowercase letters');
    expect(describePattern('^/[A-Za-z0-9\\[\\]._/-]*$')).toBe('Start with "/" and use only letters, digits, brackets, dots, underscores, slashes and hyphens');
    expect(describePattern('^[A-Za-z_][A-Za-z0-9_.-]*$')).toBe('Start with letters or underscores; then use only letters, digits, underscores, dots and hyphens');
    expect(describePattern('^\\S+(\\s+\\S+){4,5}$')).toBeUndefined();
  });

  it('turns the validator’s errors into sentences, never a regex', () => {
    expect(errorInWords({ name: 'pattern', params: { pattern: '^[a-z0-9-]+$' } })).toBe('Use only lowercase letters, digits and hyphens');
    expect(errorInWords({ name: 'pattern', params: { pattern: '^\\S+$x' } })).toBe('Not in the expected form');
    expect(errorInWords({ name: 'format', params: { format: 'uuid' } })).toBe('Choose an existing row');
    expect(errorInWords({ name: 'format', params: { format: 'email' } })).toMatch(/email address/);
    expect(errorInWords({ name: 'required', params: { missingProperty: 'adminTitle' } })).toBe('Required');
    expect(errorInWords({ name: 'minimum', params: { limit: 0 } })).toBe('Use 0 or more');
    expect(errorInWords({ name: 'type', params: { type: 'integer' } })).toBe('Enter a whole number');
  });

  it('makes slugs from titles in any configured language', () => {
    expect(slugify('Landing Template 2')).toBe('landing-template-2');
    expect(slugify('Шаблон лендинга')).toBe('shablon-lendinga');
    expect(slugify('Café déjà vu!')).toBe('cafe-deja-vu');
    expect(slugify('  --  ')).toBe('');
  });
});

import { describe, it, expect, afterEach } from 'vitest';
import { loadModel, ManifestError } from '../../engine/load.js';
import { scratchProject } from '../helpers/schemas.js';

/**
 * How the loader resolves `owner`: a reference field, a relation to rbac/subject, and (F13) a relation to an entity
 * that is itself owned — an invoice owned through its payment intent — with the chain checked as an owner field's is.
 */

const entity = (name: string, route: string, fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ name, route, title: name, access: 'private', fields, ...extra });
const relation = (name: string, ends: [string, string], to: [string, string]) =>
  entity(name, name, { [ends[0]]: { kind: 'reference', to: to[0], required: true }, [ends[1]]: { kind: 'reference', to: to[1], required: true } }, { relation: ends });

/** a subject, a payment intent it owns through rbac/subjects-to-…, and an unowned entity */
const base = {
  'rbac/subject.json': entity('subject', 'subjects', { slug: { kind: 'text' } }, { access: 'public' }),
  'shop/intent.json': entity('intent', 'intents'),
  'rbac/subjects-to-shop-intents.json': relation('subjects-to-shop-intents', ['subjectId', 'shopIntentId'], ['subject', 'shop/intent']),
  'shop/loose.json': entity('loose', 'looses'),
};

describe('ownership through a relation to an owned entity (F13)', () => {
  let p: ReturnType<typeof scratchProject>;
  afterEach(() => p?.remove());

  const load = (files: Record<string, unknown>) => {
    p = scratchProject();
    for (const [path, m] of Object.entries({ ...base, ...files })) p.write(path, m);
    try {
      return { model: loadModel(p.schemasDir), problems: [] as string[], message: '' };
    } catch (e) {
      expect(e).toBeInstanceOf(ManifestError);
      return { model: undefined, problems: (e as ManifestError).problems.map((x) => `${x.file} ${x.path} ${x.rule}`), message: (e as Error).message };
    }
  };

  it('F13: "through" a relation whose other end is an owned entity resolves to that entity; the chain and the conventions stay', () => {
    const { model, problems } = load({
      'shop/bill.json': entity('bill', 'bills', { email: { kind: 'text' } }, { owner: { through: 'shop/intents-to-bills' } }),
      // the owned end written second or first: the end that is not the entity is its owner
      'shop/intents-to-bills.json': relation('intents-to-bills', ['billId', 'intentId'], ['bill', 'intent']),
      'shop/receipt.json': entity('receipt', 'receipts', { billId: { kind: 'reference', to: 'bill' } }, { owner: 'billId' }),
    });
    expect(problems).toEqual([]);
    expect(model!.byId['shop/bill'].owner).toEqual({ kind: 'through', relation: 'shop/intents-to-bills', subjectField: 'intentId', targetField: 'billId', target: 'shop/intent' });
    // the convention (an rbac/subjects-to-… relation) names its target too
    expect(model!.byId['shop/intent'].owner).toEqual({ kind: 'through', relation: 'rbac/subjects-to-shop-intents', subjectField: 'subjectId', targetField: 'shopIntentId', target: 'rbac/subject' });
    // a field may point at an entity owned through such a chain
    expect(model!.byId['shop/receipt'].owner).toEqual({ kind: 'field', field: 'billId', target: 'shop/bill' });
    // a declared relation to rbac/subject is as before
    const direct = load({
      'shop/bill.json': entity('bill', 'bills', {}, { owner: { through: 'shop/subjects-to-bills' } }),
      'shop/subjects-to-bills.json': relation('subjects-to-bills', ['subjectId', 'billId'], ['rbac/subject', 'bill']),
    });
    expect(direct.model!.byId['shop/bill'].owner).toEqual({ kind: 'through', relation: 'shop/subjects-to-bills', subjectField: 'subjectId', targetField: 'billId', target: 'rbac/subject' });
  });

  it('F13: a relation to an entity no subject owns, a loop, a relation of the wrong entities and a self relation are refused, each naming the way out', () => {
    const unowned = load({
      'shop/bill.json': entity('bill', 'bills', {}, { owner: { through: 'shop/looses-to-bills' } }),
      'shop/looses-to-bills.json': relation('looses-to-bills', ['looseId', 'billId'], ['loose', 'bill']),
    });
    expect(unowned.problems).toEqual(['shop/bill.json /owner owner']);
    expect(unowned.message).toContain("'shop/looses-to-bills' links shop/bill to shop/loose, which no subject owns: link it to rbac/subject or to an owned entity");

    // egg owned through hens-to-eggs, hen owned through its egg: a loop, reported for each
    const loop = load({
      'shop/egg.json': entity('egg', 'eggs', {}, { owner: { through: 'shop/hens-to-eggs' } }),
      'shop/hen.json': entity('hen', 'hens', { eggId: { kind: 'reference', to: 'egg' } }, { owner: 'eggId' }),
      'shop/hens-to-eggs.json': relation('hens-to-eggs', ['henId', 'eggId'], ['hen', 'egg']),
    });
    expect(loop.problems).toEqual(['shop/egg.json /owner owner', 'shop/hen.json /owner owner']);
    expect(loop.message).toContain('the owner chain of shop/egg loops through shop/egg');
    expect(loop.message).toContain('the owner chain of shop/hen loops through shop/hen');

    const wrong = load({
      'shop/bill.json': entity('bill', 'bills', {}, { owner: { through: 'shop/intents-to-looses' } }),
      'shop/intents-to-looses.json': relation('intents-to-looses', ['intentId', 'looseId'], ['intent', 'loose']),
      'shop/note.json': entity('note', 'notes', {}, { owner: { through: 'shop/loose' } }),
      'shop/memo.json': entity('memo', 'memos', {}, { owner: { through: 'shop/nowhere' } }),
    });
    expect(wrong.problems).toEqual(['shop/bill.json /owner/through owner', 'shop/memo.json /owner/through owner', 'shop/note.json /owner/through owner']);
    expect(wrong.message).toContain("'shop/intents-to-looses' must be a relation entity linking shop/bill to rbac/subject or to an entity a subject owns");
    expect(wrong.message).toContain("'shop/loose' must be a relation entity linking shop/note to rbac/subject or to an entity a subject owns");
    expect(wrong.message).toContain("'shop/nowhere' must be a relation entity linking shop/memo to rbac/subject or to an entity a subject owns");

    const self = load({
      'shop/part.json': entity('part', 'parts', {}, { owner: { through: 'shop/parts-to-parts' } }),
      'shop/parts-to-parts.json': relation('parts-to-parts', ['partId', 'otherPartId'], ['part', 'part']),
    });
    expect(self.problems).toEqual(['shop/part.json /owner/through owner']);
    expect(self.message).toContain("'shop/parts-to-parts' links shop/part to itself: a row cannot be owned through a row of its own kind");
  });

  it('F13: billing/invoice is owned through its payment intent, and that through the subject', () => {
    const model = loadModel(new URL('../../schemas', import.meta.url).pathname);
    expect(model.byId['billing/invoice'].owner).toEqual({ kind: 'through', relation: 'billing/payment-intents-to-invoices', subjectField: 'paymentIntentId', targetField: 'invoiceId', target: 'billing/payment-intent' });
    expect(model.byId['billing/payment-intent'].owner).toMatchObject({ kind: 'through', target: 'rbac/subject' });
  });
});

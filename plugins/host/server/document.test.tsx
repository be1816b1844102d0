import { describe, expect, it } from 'vitest';
import { register } from '../../../web/registry.js';
import type { PageData } from '../../../web/storefront/page.js';
import { renderDocument } from './document.js';

/** a widget that reads `extra` only when `showExtra` is set: what it reads depends on its data */
register('test/widget/conditional', ({ row }: { row: Record<string, unknown> }) => (
  <section>
    <h2>{String(row.title)}</h2>
    {row.showExtra ? <p>{String(row.extra)}</p> : null}
  </section>
));

const page = (widget: Record<string, unknown>): PageData => ({
  context: { language: 'en', languages: ['en'], defaultLanguage: 'en', url: '/', params: {} },
  title: 't',
  meta: {},
  before: [],
  content: [{ id: 'b1', module: 'test', widget: { id: 'w1', variant: 'conditional', ...widget } as never }],
  after: [],
});
const shipped = (html: string) => JSON.parse(html.match(/<script id="__PAGE__" type="application\/json">(.*?)<\/script>/s)![1]).content[0].widget;

describe('a render ships what it read, also when the same data was rendered before', () => {
  it('the same data twice: the same document, the same fields shipped', () => {
    const data = () => page({ title: 'Hello', showExtra: false, extra: 'secret draft', adminTitle: 'internal' });
    const first = renderDocument(data(), '');
    const second = renderDocument(data(), '');
    expect(second).toBe(first);
    expect(first).toContain('<h2>Hello</h2>');
    expect(shipped(second)).toEqual({ id: 'w1', variant: 'conditional', title: 'Hello', showExtra: false });
  });

  it('a page whose data changed only where no render read keeps its reads: the new value is not shipped', () => {
    const first = renderDocument(page({ title: 'Same', showExtra: false, adminTitle: 'internal' }), '');
    const second = renderDocument(page({ title: 'Same', showExtra: false, adminTitle: 'renamed in the admin' }), '');
    expect(second).toBe(first);
    expect(second).not.toContain('renamed in the admin');
    // a value the render read changed: drawn and shipped
    const third = renderDocument(page({ title: 'Changed', showExtra: false, adminTitle: 'renamed in the admin' }), '');
    expect(third).toContain('<h2>Changed</h2>');
    expect(shipped(third)).toEqual({ id: 'w1', variant: 'conditional', title: 'Changed', showExtra: false });
  });

  it('data that makes the render read another field ships that field', () => {
    renderDocument(page({ title: 'Hello', showExtra: false, extra: 'Shown now' }), '');
    const html = renderDocument(page({ title: 'Hello', showExtra: true, extra: 'Shown now' }), '');
    expect(html).toContain('<p>Shown now</p>');
    expect(shipped(html)).toEqual({ id: 'w1', variant: 'conditional', title: 'Hello', showExtra: true, extra: 'Shown now' });
    // and the first data again: the field it does not draw stays off
    expect(shipped(renderDocument(page({ title: 'Hello', showExtra: false, extra: 'Shown now' }), ''))).not.toHaveProperty('extra');
  });

  it('the fields read are told to the host on every render, the first and those after', () => {
    const told: string[][] = [];
    const data = () => page({ title: 'Again', showExtra: true, extra: 'x' });
    renderDocument(data(), '', '', (paths) => told.push([...paths]));
    renderDocument(data(), '', '', (paths) => told.push([...paths]));
    expect(told[1]).toEqual(told[0]);
    expect(told[0]).toEqual(expect.arrayContaining(['test:conditional.title', 'test:conditional.extra']));
  });

  it('the page data cannot close its script tag or break a line of script: <, > and the line separators are escaped', () => {
    const title = 'a</script><script>alert(1)</script>\u2028b\u2029c';
    const html = renderDocument(page({ title, showExtra: false }), '');
    const json = html.match(/<script id="__PAGE__" type="application\/json">(.*?)<\/script>/s)![1];
    expect(json).not.toMatch(/[<>\u2028\u2029]/);
    expect(JSON.parse(json).content[0].widget.title).toBe(title);
  });
});

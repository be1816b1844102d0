import { afterEach, describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render, screen } from '@testing-library/react';
import { collectChunks, declaredChunks, loadChunks, lookup, register, registered, registerLazy } from './registry.js';
import { ROOT } from '../engine/codegen.js';

afterEach(cleanup);

describe('variant registry', () => {
  it("falls back to the generic '*/*' entry, and a module overrides one entity's variant by key", () => {
    const Generic = () => null;
    const ProductForm = () => null;
    register('*/*/admin-form', Generic);
    expect(lookup('ecommerce', 'product', 'admin-form')).toBe(Generic);
    register('ecommerce/product/admin-form', ProductForm);
    expect(lookup('ecommerce', 'product', 'admin-form')).toBe(ProductForm);
    expect(lookup('ecommerce', 'store', 'admin-form')).toBe(Generic);
    expect(lookup('ecommerce', 'product', 'no-such-variant')).toBeUndefined();
  });
});

/** a file of variants as a test declares it: its exports, and how many times it was loaded */
function file<M extends Record<string, unknown>>(exports: M) {
  const f = { loads: 0, load: async () => (f.loads++, exports) };
  return f;
}

describe('variants declared lazily, a chunk per file', () => {
  it('a render notes the chunks of the variants it looked up, and only those; loading one loads no other', async () => {
    const Slider = () => null;
    const Heading = () => null;
    const Navbar = () => null;
    const sliders = file({ Slider, Heading });
    const navbars = file({ Navbar });
    registerLazy('t1/slider', sliders.load, { 't1/widget/slider': 'Slider', 't1/widget/heading': 'Heading' });
    registerLazy('t1/navbar', navbars.load, { 't1/widget/navbar': 'Navbar' });
    // before loading: a placeholder that loads its chunk when rendered, never the generic fallback
    const before = lookup('t1', 'widget', 'slider');
    expect(before).toBeDefined();
    expect(before).not.toBe(Slider);
    expect(registered()).not.toContain('t1/widget/slider');
    const { result, chunks } = collectChunks(() => [lookup('t1', 'widget', 'slider'), lookup('t1', 'widget', 'heading'), lookup('ecommerce', 'product', 'admin-form')]);
    expect(result[0]).toBe(before);
    expect(chunks).toEqual(['t1/slider']);
    await loadChunks(chunks);
    expect(sliders.loads).toBe(1);
    expect(navbars.loads).toBe(0);
    expect(lookup('t1', 'widget', 'slider')).toBe(Slider);
    expect(lookup('t1', 'widget', 'heading')).toBe(Heading);
    expect(registered()).toEqual(expect.arrayContaining(['t1/widget/slider', 't1/widget/heading']));
    expect(registered()).not.toContain('t1/widget/navbar');
    // loaded or not, a lookup notes its chunk; loading again (or an unknown name) changes nothing
    expect(collectChunks(() => [lookup('t1', 'widget', 'slider'), lookup('t1', 'widget', 'navbar')]).chunks).toEqual(['t1/navbar', 't1/slider']);
    await loadChunks(['t1/slider', 'no-such-chunk']);
    expect(sliders.loads).toBe(1);
    // renders nest: an inner render's chunks are its own, and the outer one's too
    const outer = collectChunks(() => [collectChunks(() => lookup('t1', 'widget', 'navbar')).chunks, lookup('t1', 'widget', 'heading')]);
    expect(outer.result[0]).toEqual(['t1/navbar']);
    expect(outer.chunks).toEqual(['t1/slider']);
  });

  it('a variant the module does not declare is not a placeholder: the generic one, else nothing (a fallback can draw)', () => {
    const Generic = () => null;
    registerLazy('t2/content', file({ Content: () => null }).load, { 't2/widget/content': 'Content' });
    expect(collectChunks(() => lookup('t2', 'widget', 'no-such-variant'))).toEqual({ result: undefined, chunks: [] });
    register('*/*/t2-generic', Generic);
    expect(lookup('t2', 'widget', 't2-generic')).toBe(Generic);
  });

  it('an explicit register wins over a lazy declaration, before and after its chunk loads, and needs no chunk', async () => {
    const Lazy = () => null;
    const Early = () => null;
    const Late = () => null;
    const f = file({ Lazy });
    register('t3/widget/early', Early);
    registerLazy('t3/file', f.load, { 't3/widget/early': 'Lazy', 't3/widget/late': 'Lazy' });
    expect(collectChunks(() => lookup('t3', 'widget', 'early'))).toEqual({ result: Early, chunks: [] });
    await loadChunks();
    expect(lookup('t3', 'widget', 'early')).toBe(Early);
    expect(lookup('t3', 'widget', 'late')).toBe(Lazy);
    register('t3/widget/late', Late);
    expect(lookup('t3', 'widget', 'late')).toBe(Late);
  });

  it('a key picks an export by name or by a function of the exports; a key declared again keeps its first declaration', async () => {
    const Card = ({ label }: { label: string }) => <b>{label}</b>;
    const Other = () => null;
    const f = file({ Card });
    registerLazy('t4/card', f.load, { 't4/product/card': 'Card', 't4/product/wrapped': (m) => () => <m.Card label="wrapped" /> });
    registerLazy('t4/other', file({ Other }).load, { 't4/product/card': 'Other' });
    // a chunk declared again with more keys: one chunk, loaded once
    registerLazy('t4/card', f.load, { 't4/product/again': 'Card' });
    await loadChunks(['t4/card']);
    expect(lookup('t4', 'product', 'card')).toBe(Card);
    expect(lookup('t4', 'product', 'again')).toBe(Card);
    const Wrapped = lookup('t4', 'product', 'wrapped')!;
    expect(lookup('t4', 'product', 'wrapped')).toBe(Wrapped);
    render(<Wrapped />);
    expect(screen.getByText('wrapped')).toBeTruthy();
    expect(f.loads).toBe(1);
    // declared after its chunk loaded: drawn at once
    registerLazy('t4/card', f.load, { 't4/product/later': 'Card' });
    expect(lookup('t4', 'product', 'later')).toBe(Card);
  });

  it('a placeholder draws nothing until its chunk arrives, then the variant', async () => {
    let arrive!: () => void;
    const Banner = ({ row }: { row: { title: string } }) => <h2>{row.title}</h2>;
    registerLazy('t5/banner', () => new Promise<{ Banner: typeof Banner }>((resolve) => (arrive = () => resolve({ Banner }))), { 't5/widget/banner': 'Banner' });
    const Placeholder = lookup('t5', 'widget', 'banner')!;
    const { container } = render(<section data-testid="slot"><Placeholder row={{ title: 'Spring sale' }} /></section>);
    expect(container.querySelector('section')!.textContent).toBe('');
    arrive();
    expect((await screen.findByRole('heading')).textContent).toBe('Spring sale');
    expect(lookup('t5', 'widget', 'banner')).toBe(Banner);
  });
});

describe("the modules' declarations (plugins/web.ts)", () => {
  it('name each chunk by the file it loads, and every key they declare draws a component once loaded', async () => {
    const { registerPluginVariants } = await import('../plugins/web.js');
    await registerPluginVariants();
    const declared = declaredChunks().filter((c) => c.name.startsWith('plugins/') || c.name.startsWith('web/'));
    expect(declared.length).toBeGreaterThan(30);
    for (const c of declared) {
      const source = ['.tsx', '.ts'].map((ext) => join(ROOT, c.name + ext)).find((p) => existsSync(p));
      expect(source, c.name).toBeDefined();
      // the loader imports that very file: the same module instance
      expect(await c.load(), c.name).toBe(await import(/* @vite-ignore */ source!));
      for (const key of c.keys) {
        const [module, entity, variant] = key.split('/');
        const component = lookup(module, entity, variant);
        expect(typeof component === 'function' || typeof component === 'object', key).toBe(true);
        expect(registered()).toContain(key);
      }
    }
    // the blog's widgets are split: its latest-articles list is a file of its own
    const blog = declared.filter((c) => c.keys.some((k) => k.startsWith('blog/widget/')));
    expect(blog.find((c) => c.keys.includes('blog/widget/article-list-latest-default'))?.keys.filter((k) => k.startsWith('blog/'))).toEqual(['blog/widget/article-list-latest-default']);
    expect(blog.length).toBeGreaterThan(2);
  });
});

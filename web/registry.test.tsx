import { describe, it, expect } from 'vitest';
import { register, lookup } from './registry.js';

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

describe('lazy modules in the registry', () => {
  it('a module loads on demand; a render notes the modules it looked up; an explicit registration wins over the module', async () => {
    const { registerLazy, loadModules, collectModules } = await import('./registry.js');
    const Slider = () => null;
    const Override = () => null;
    let loads = 0;
    registerLazy('lazy-test', async () => {
      loads++;
      return () => {
        register('lazy-test/widget/slider', Slider);
        register('lazy-test/widget/heading', Slider);
      };
    });
    register('lazy-test/widget/heading', Override);
    // before loading: a placeholder that loads the module when rendered, never the generic fallback
    const before = lookup('lazy-test', 'widget', 'slider');
    expect(before).toBeDefined();
    expect(before).not.toBe(Slider);
    const { result, modules } = collectModules(() => [lookup('lazy-test', 'widget', 'slider'), lookup('ecommerce', 'product', 'admin-form')]);
    expect(result[0]).toBe(before);
    expect(modules).toEqual(['lazy-test']);
    await loadModules(['lazy-test', 'no-such-module']);
    await loadModules(['lazy-test']);
    expect(loads).toBe(1);
    expect(lookup('lazy-test', 'widget', 'slider')).toBe(Slider);
    expect(lookup('lazy-test', 'widget', 'heading')).toBe(Override);
    expect(lookup('lazy-test', 'widget', 'unknown')).toBeUndefined();
    expect(collectModules(() => lookup('lazy-test', 'widget', 'slider')).modules).toEqual(['lazy-test']);
  });
});

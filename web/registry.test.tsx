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

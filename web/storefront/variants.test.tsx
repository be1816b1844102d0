import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { register } from '../registry.js';
import { PageProvider, Variant, type PageContext } from './context.js';
import { canonicalVariant, resolveVariant, spellVariant } from './variants.js';

const page = (product?: string): PageContext => ({ language: 'en', languages: ['en'], defaultLanguage: 'en', url: '/', params: {}, ...(product && { product }) });

describe('{product} in variant names', () => {
  it('spells a spec name with the product, or without it when none is set', () => {
    expect(spellVariant('content-{product}-description', 'acme')).toBe('content-acme-description');
    expect(spellVariant('{product}-vacancy', 'big-shop')).toBe('big-shop-vacancy');
    expect(spellVariant('product-list-{product}-recommendation')).toBe('product-list-recommendation');
    expect(spellVariant('{product}-default')).toBe('default');
  });

  it("takes the product's name out again, whole words only", () => {
    expect(canonicalVariant('content-acme-description', 'acme')).toBe('content-description');
    expect(canonicalVariant('big-shop-vacancy', 'big-shop')).toBe('vacancy');
    expect(canonicalVariant('content-acmes-description', 'acme')).toBe('content-acmes-description');
    expect(canonicalVariant('content-description')).toBe('content-description');
  });

  it('<Variant> draws a spelled-out name with the component of the manifest name; an unknown one draws nothing', () => {
    register('test/widget/content-description', () => <p>description block</p>);
    const draw = (variant: string, product?: string) => renderToString(<PageProvider value={page(product)}><Variant module="test" entity="widget" row={{ id: 'w', variant }} /></PageProvider>);
    expect(draw('content-acme-description', 'acme')).toBe('<p>description block</p>');
    expect(draw('content-description', 'acme')).toBe('<p>description block</p>');
    expect(draw('content-acme-description')).toBe('');
    expect(draw('content-other-description', 'acme')).toBe('');
    expect(resolveVariant('test', 'widget', 'no-such-variant', 'acme')).toBeUndefined();
  });
});

import type { ReactElement } from 'react';

/** what a generated image shows, already in the page's language */
export interface CardText {
  title: string;
  description?: string;
  /** the site's name (the primary metadata's title) */
  siteName?: string;
  /** the address the card stands for, shown small */
  url?: string;
  /** a word above the title: the kind of thing ('Article', 'Product') */
  kicker?: string;
}

const clip = (s: string | undefined, n: number) => (s && s.length > n ? s.slice(0, n - 1).trimEnd() + '…' : (s ?? ''));

/** 1200 × 630: the OpenGraph image of a page or an entity (satori: flexbox and inline styles only) */
export function OpenGraphImage({ title, description, siteName, url, kicker }: CardText): ReactElement {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', justifyContent: 'space-between', boxSizing: 'border-box', width: '100%', height: '100%', padding: 72, background: 'linear-gradient(135deg, #0f172a 0%, #1e3a8a 100%)', color: '#f8fafc', fontFamily: 'Inter' }}>
      <div style={{ display: 'flex', fontSize: 28, color: '#93c5fd', fontWeight: 700, letterSpacing: 2, textTransform: 'uppercase' }}>{clip(siteName, 60)}</div>
      <div style={{ display: 'flex', flexDirection: 'column' }}>
        {kicker && <div style={{ display: 'flex', fontSize: 26, color: '#cbd5e1', marginBottom: 16 }}>{kicker}</div>}
        <div style={{ display: 'flex', fontSize: title.length > 36 ? 54 : 72, fontWeight: 700, lineHeight: 1.1 }}>{clip(title, 100)}</div>
        {description && <div style={{ display: 'flex', fontSize: 28, lineHeight: 1.4, color: '#e2e8f0', marginTop: 20 }}>{clip(description, 140)}</div>}
      </div>
      <div style={{ display: 'flex', fontSize: 24, color: '#94a3b8' }}>{clip(url, 90)}</div>
    </div>
  );
}

/** 1080 × 1080: a product's attachment card (the products-to-files relation's attachment-default variant) */
export function ProductAttachment({ title, description, siteName, url }: CardText): ReactElement {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', width: '100%', height: '100%', background: '#ffffff', color: '#0f172a', fontFamily: 'Inter' }}>
      <div style={{ display: 'flex', height: 24, background: '#2563eb' }} />
      <div style={{ display: 'flex', flexDirection: 'column', flexGrow: 1, justifyContent: 'space-between', boxSizing: 'border-box', padding: 80 }}>
        <div style={{ display: 'flex', fontSize: 30, fontWeight: 700, color: '#2563eb' }}>{clip(siteName, 50)}</div>
        <div style={{ display: 'flex', flexDirection: 'column' }}>
          <div style={{ display: 'flex', fontSize: 84, fontWeight: 700, lineHeight: 1.05 }}>{clip(title, 80)}</div>
          {description && <div style={{ display: 'flex', fontSize: 36, lineHeight: 1.4, color: '#334155', marginTop: 32 }}>{clip(description, 260)}</div>}
        </div>
        <div style={{ display: 'flex', fontSize: 26, color: '#64748b' }}>{clip(url, 70)}</div>
      </div>
    </div>
  );
}

/** the variants this module renders, with their size and the entities they are for */
export const GENERATED: Record<string, { width: number; height: number; entities?: string[]; Card: (p: CardText) => ReactElement }> = {
  'generate-template-opengraph-image': { width: 1200, height: 630, Card: OpenGraphImage },
  'generate-template-ecommerce-module-product-attachment': { width: 1080, height: 1080, entities: ['ecommerce/product'], Card: ProductAttachment },
};

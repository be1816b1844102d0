import type { CSSProperties } from 'react';
import { renderImage } from '../../../runtime/image.js';
import { decimalText, priceIn, type Price } from '../pricing.js';
import { titleOf } from './checkout.js';
import { translate } from '../../../web/storefront/words.js';
import '../web/words.js';
import type { OrderView } from './orders.js';

/** spec §9: the receipt template is 1500 by 1500 */
export const RECEIPT_SIZE = { width: 1500, height: 1500 };
const MAX_LINES = 12;

/** DD.MM.YYYY HH:mm (spec §9), in UTC so that a receipt reads the same wherever it is rendered */
export function receiptDate(value: unknown): string {
  const d = new Date(value as string);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}.${p(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())} UTC`;
}

const row: CSSProperties = { display: 'flex', alignItems: 'center', borderBottom: '2px solid #e2e8f0', padding: '22px 0', fontSize: 32 };
const cell = (width: number, align: 'left' | 'right' = 'left'): CSSProperties => ({ display: 'flex', width, justifyContent: align === 'right' ? 'flex-end' : 'flex-start' });

/** the receipt of a paid order, in the buyer's language: its lines in the currency it was paid in, the total, who paid and how */
export function Receipt({ order, paidAt, shop, language }: { order: OrderView; paidAt: unknown; shop: string; language: string }) {
  const w = (key: string, vars?: Record<string, string | number>) => translate(`ecommerce.${key}`, language, vars);
  const currencyId = order.currency?.id;
  const invoice = order.invoices[order.invoices.length - 1];
  // ISO codes rather than symbols: a receipt reads the same in any language, and every code is in the font; amounts
  // with the currency's own digits, as they were charged (49.50 USD, 1000 JPY, 1.500 KWD)
  const money = (prices: Price[]) => {
    const p = priceIn(prices, currencyId) ?? prices[0];
    return p ? `${decimalText(p)} ${String(p.currency.slug ?? '').toUpperCase()}` : '—';
  };
  const lines = order.ordersToProducts.slice(0, MAX_LINES);
  const more = order.ordersToProducts.length - lines.length;
  return (
    <div style={{ width: '100%', height: '100%', display: 'flex', background: '#ffffff', color: '#0f172a', fontFamily: 'Inter' }}>
    <div style={{ display: 'flex', flexDirection: 'column', flexGrow: 1, margin: 100 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start' }}>
        <div style={{ display: 'flex', flexDirection: 'column' }}>
          <div style={{ display: 'flex', fontSize: 36, color: '#2563eb', fontWeight: 700 }}>{shop}</div>
          <div style={{ display: 'flex', fontSize: 84, fontWeight: 700, marginTop: 16 }}>{w('receipt')}</div>
        </div>
        <div style={{ display: 'flex', background: '#dcfce7', color: '#166534', borderRadius: 999, padding: '14px 36px', fontSize: 34, fontWeight: 700 }}>{w('receipt.paid')}</div>
      </div>
      <div style={{ display: 'flex', flexDirection: 'column', marginTop: 40, fontSize: 30, color: '#475569' }}>
        <div style={{ display: 'flex' }}>{w('order', { id: order.id })}</div>
        <div style={{ display: 'flex', marginTop: 10 }}>{receiptDate(paidAt)}</div>
      </div>
      <div style={{ display: 'flex', flexDirection: 'column', marginTop: 60 }}>
        <div style={{ ...row, color: '#64748b', fontSize: 26, fontWeight: 700, textTransform: 'uppercase' }}>
          <div style={cell(580)}>{w('receipt.product')}</div>
          <div style={cell(120, 'right')}>{w('receipt.quantity')}</div>
          <div style={cell(300, 'right')}>{w('receipt.price')}</div>
          <div style={cell(300, 'right')}>{w('total')}</div>
        </div>
        {lines.map((l) => (
          <div key={l.id} style={row}>
            <div style={{ ...cell(580), overflow: 'hidden' }}>{titleOf(l.product, language)}</div>
            <div style={cell(120, 'right')}>{String(l.quantity)}</div>
            <div style={cell(300, 'right')}>{money(l.prices)}</div>
            <div style={{ ...cell(300, 'right'), fontWeight: 700 }}>{money(l.totals)}</div>
          </div>
        ))}
        {more > 0 && <div style={{ ...row, color: '#64748b' }}>{w('receipt.more', { count: more })}</div>}
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginTop: 50, fontSize: 48, fontWeight: 700 }}>
        <div style={{ display: 'flex' }}>{w('total')}</div>
        <div style={{ display: 'flex' }}>{money(order.totals)}</div>
      </div>
      <div style={{ display: 'flex', flexDirection: 'column', marginTop: 'auto', fontSize: 28, color: '#64748b' }}>
        {invoice && <div style={{ display: 'flex' }}>{w('receipt.paidWith', { provider: invoice.provider, id: invoice.id })}</div>}
        {invoice?.email && <div style={{ display: 'flex', marginTop: 10 }}>{w('receipt.billedTo', { email: invoice.email })}</div>}
      </div>
    </div>
    </div>
  );
}

/** the receipt as a 1500 × 1500 PNG, in a language of the shop's words */
export const renderReceipt = (order: OrderView, paidAt: unknown, language = 'en', shop = 'Studio') =>
  renderImage(<Receipt order={order} paidAt={paidAt} shop={shop} language={language} />, RECEIPT_SIZE);

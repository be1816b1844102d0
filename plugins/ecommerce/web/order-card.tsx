import { FileText, Minus, Plus, Trash2 } from 'lucide-react';
import { Button } from '../../../web/ui/button.js';
import { cn } from '../../../web/ui/cn.js';
import { useHref, useT } from '../../../web/storefront/context.js';
import { isSafeLink } from '../../../engine/links.js';
import { formatPrice, orderQuantity, orderTotals, type Price } from '../pricing.js';
import { productPath } from './parts.js';
import { useCartChange, type Order, type OrderLine } from './shop-api.js';
import { useEcommerceWords } from './words.js';

/** the order statuses (schemas/ecommerce/order.json), each named by the word 'status.<status>' */
export const STATUSES = ['new', 'paying', 'approving', 'packaging', 'delivering', 'delivered', 'canceled'] as const;
const isStatus = (s: string): s is (typeof STATUSES)[number] => (STATUSES as readonly string[]).includes(s);
const STATUS_COLORS: Record<string, string> = {
  new: 'bg-slate-100 text-slate-700',
  paying: 'bg-amber-100 text-amber-800',
  approving: 'bg-green-100 text-green-800',
  packaging: 'bg-blue-100 text-blue-800',
  delivering: 'bg-blue-100 text-blue-800',
  delivered: 'bg-green-100 text-green-800',
  canceled: 'bg-red-100 text-red-700',
};

/** several currencies side by side: '$25 · ₽1980' */
export const moneyText = (prices: Price[]) => prices.map(formatPrice).join(' · ');

/**
 * The amounts an order shows: a checked-out order's in the currency it was charged in only (its `currency`); a cart,
 * which has none yet, in every currency it is priced in.
 */
export const chargedIn = (prices: Price[], currency: Order['currency']) => {
  if (!currency) return prices;
  const own = prices.filter((p) => p.currency.id === currency.id);
  return own.length ? own : prices;
};

export function StatusBadge({ status }: { status: string }) {
  const w = useEcommerceWords();
  return <span className={cn('inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold', STATUS_COLORS[status] ?? STATUS_COLORS.new)}>{isStatus(status) ? w(`status.${status}`) : status}</span>;
}

/** one line: the product, its quantity (a stepper in the cart) and its total per currency */
function Line({ line, order, editable }: { line: OrderLine; order: Order; editable: boolean }) {
  const t = useT();
  const href = useHref();
  const change = useCartChange();
  const w = useEcommerceWords();
  const title = t(line.product.title) || line.product.adminTitle || line.product.slug;
  const setQuantity = (quantity: number) => change.mutate({ method: 'PATCH', path: `/orders/${order.id}`, data: { ordersToProducts: [{ id: line.id, quantity }] }, done: w('updated') });
  const remove = () => change.mutate({ method: 'DELETE', path: `/orders/${order.id}`, data: { ordersToProducts: [{ id: line.id }] }, done: w('deleted') });
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
      <div className="min-w-0 flex-1">
        <a href={href(productPath(line.product as never))} className="block truncate font-medium text-slate-900 hover:underline">{title}</a>
        <p className="text-sm text-slate-500">{w('each', { price: moneyText(chargedIn(line.prices, order.currency)) })}</p>
      </div>
      {editable ? (
        <div className="flex items-center gap-1" aria-busy={change.isPending}>
          <Button size="icon" variant="outline" aria-label={w('decrease', { title })} disabled={change.isPending || line.quantity <= 1} onClick={() => setQuantity(line.quantity - 1)}>
            <Minus className="h-4 w-4" aria-hidden />
          </Button>
          <span className="min-w-8 px-1 text-center text-sm font-semibold tabular-nums" aria-label={w('quantityOf', { title })}>{line.quantity}</span>
          <Button size="icon" variant="outline" aria-label={w('increase', { title })} disabled={change.isPending} onClick={() => setQuantity(line.quantity + 1)}>
            <Plus className="h-4 w-4" aria-hidden />
          </Button>
          <Button size="icon" variant="ghost" aria-label={w('remove', { title })} disabled={change.isPending} onClick={remove} className="text-red-600 hover:bg-red-50">
            <Trash2 className="h-4 w-4" aria-hidden />
          </Button>
        </div>
      ) : (
        <span className="text-sm text-slate-600">× {line.quantity}</span>
      )}
      <span className="w-full text-right text-sm font-semibold text-slate-900 sm:w-auto sm:min-w-24">{moneyText(chargedIn(line.totals, order.currency))}</span>
    </li>
  );
}

/**
 * 'Order #{id}' (spec §2): its status, each product with its quantity and total, the quantity and the
 * totals per currency (computed here with the server's own function), and, once paid, the receipt. A checked-out
 * order shows its amounts in the currency it was charged in only.
 */
export function OrderCard({ order, editable = false, className, highlighted = false }: { order: Order; editable?: boolean; className?: string; highlighted?: boolean }) {
  // a checked-out order's total in the currency it was charged in; a cart's in each currency it is priced in
  const totals = chargedIn(orderTotals(order.ordersToProducts), order.currency);
  const quantity = orderQuantity(order.ordersToProducts);
  const invoice = order.invoices.at(-1);
  // stored addresses pass the link allow-list again before they are drawn (engine/links.ts), as every url field does
  const receipt = isSafeLink(order.receipt) ? order.receipt : undefined;
  const paymentUrl = isSafeLink(invoice?.paymentUrl) ? invoice.paymentUrl : undefined;
  const w = useEcommerceWords();
  return (
    <article aria-label={w('order', { id: order.id })} className={cn('rounded-xl border bg-white p-4 shadow-sm sm:p-5', highlighted ? 'border-blue-400 ring-2 ring-blue-100' : 'border-slate-200', className)}>
      <header className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 break-all font-semibold text-slate-900">{w('order', { id: order.id })}</h3>
        <StatusBadge status={order.status} />
      </header>
      {order.ordersToProducts.length ? (
        <ul className="mt-2 divide-y divide-slate-100">
          {order.ordersToProducts.map((l) => (
            <Line key={l.id} line={l} order={order} editable={editable} />
          ))}
        </ul>
      ) : (
        <p className="py-4 text-sm text-slate-500">{w('noProductsYet')}</p>
      )}
      <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 border-t border-slate-200 pt-3 text-sm">
        <dt className="text-slate-600">{w('quantity')}</dt>
        <dd className="text-right font-medium tabular-nums" data-testid="order-quantity">{quantity}</dd>
        <dt className="text-slate-600">{w('total')}</dt>
        <dd className="text-right text-base font-bold text-slate-900" data-testid="order-total">{totals.length ? moneyText(totals) : '—'}</dd>
      </dl>
      {order.comment && <p className="mt-3 text-sm text-slate-600">“{order.comment}”</p>}
      {(receipt || (order.status === 'paying' && invoice?.status === 'open' && paymentUrl)) && (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          {receipt && (
            <a href={receipt} target="_blank" rel="noreferrer" className="group inline-flex items-center gap-3 rounded-lg border border-slate-200 p-2 pr-4 text-sm font-medium text-blue-700 hover:bg-slate-50">
              <img src={receipt} alt={w('receiptOf', { id: order.id })} width={56} height={56} className="h-14 w-14 rounded border border-slate-200 object-cover" />
              <span className="inline-flex items-center gap-1.5"><FileText className="h-4 w-4" aria-hidden />{w('receipt')}</span>
            </a>
          )}
          {!receipt && paymentUrl && (
            <a href={paymentUrl} className="inline-flex h-9 items-center rounded-md bg-blue-600 px-4 text-sm font-semibold text-white hover:bg-blue-500">{w('payNow')}</a>
          )}
        </div>
      )}
    </article>
  );
}

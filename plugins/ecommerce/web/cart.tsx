import { useEffect } from 'react';
import * as Sheet from '@radix-ui/react-dialog';
import { Package, ShoppingCart, X } from 'lucide-react';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { cn } from '../../../web/ui/cn.js';
import { useHref, type Expanded } from '../../../web/storefront/context.js';
import { Floating, useInHeaderSlot } from '../../../web/storefront/floating.js';
import { useSubject } from '../../rbac/web/session.js';
import { orderQuantity, orderTotals } from '../pricing.js';
import { CheckoutForm } from './checkout-form.js';
import { OrderCard } from './order-card.js';
import { ORDERS_PAGE, cartDrawer, shopPath, shopRequest, useCart, useCartDrawer, type CheckoutAnswer } from './shop-api.js';
import { useEcommerceWords } from './words.js';
import { useWords } from '../../../web/storefront/words.js';

/** what the drawer holds: the cart as an editable order card and the checkout form, or the empty state */
function CartContent() {
  const cart = useCart();
  const w = useEcommerceWords();
  if (cart.isPending) {
    return (
      <div className="space-y-3" aria-busy>
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-10 w-2/3" />
      </div>
    );
  }
  if (cart.isError) return <p role="alert" className="text-sm text-red-700">{w('cartFailed')}</p>;
  const order = cart.data;
  if (!order || !order.ordersToProducts.length) {
    return (
      <div className="flex flex-col items-center gap-3 py-16 text-center text-slate-600">
        <ShoppingCart className="h-10 w-10 text-slate-300" aria-hidden />
        <p className="font-medium text-slate-900">{w('cartEmpty')}</p>
        <p className="text-sm">{w('cartEmptyText')}</p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <OrderCard order={order} editable />
      <section aria-label={w('checkout')} className="rounded-xl border border-slate-200 bg-slate-50 p-4 sm:p-5">
        <h3 className="mb-4 font-semibold text-slate-900">{w('checkout')}</h3>
        <CheckoutForm
          key={order.id}
          totals={orderTotals(order.ordersToProducts)}
          label={w('checkout')}
          submit={(input) =>
            shopRequest<CheckoutAnswer>('POST', shopPath(cart.subjectId!, '/orders/checkout'), {
              data: { provider: input.provider, email: input.email, comment: input.comment, language: input.language, billingModule: { currency: { id: input.currencyId } }, ecommerceModule: { orders: [{ id: order.id }] } },
            })
          }
        />
      </section>
    </div>
  );
}

/**
 * The cart drawer (spec §2): titled Cart, from the right, 400 px wide (540 px on large screens; the
 * whole width on a phone). A modal dialog: focus is trapped, Escape or the close button closes it.
 */
export function CartSheet() {
  const { open } = useCartDrawer();
  const href = useHref();
  const w = useEcommerceWords();
  const sw = useWords();
  return (
    <Sheet.Root open={open} onOpenChange={cartDrawer.set}>
      <Sheet.Portal>
        <Sheet.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Sheet.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => {
            // no Sheet.Trigger (it opens from the cart button and the products' Checkout): focus goes back to the opener
            if (cartDrawer.restoreFocus()) e.preventDefault();
          }}
          className="fixed inset-y-0 right-0 z-50 flex w-full flex-col bg-white shadow-2xl focus:outline-none sm:w-[400px] lg:w-[540px]"
          data-testid="cart-drawer"
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-5 py-4">
            <Sheet.Title className="text-lg font-semibold text-slate-900">{w('cart')}</Sheet.Title>
            <Sheet.Close className="rounded p-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-blue-600" aria-label={sw('close')}>
              <X className="h-5 w-5" />
            </Sheet.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-5">
            <CartContent />
          </div>
          <div className="border-t border-slate-200 px-5 py-3">
            <a href={href(ORDERS_PAGE)} className="inline-flex items-center gap-2 text-sm font-medium text-blue-700 hover:underline">
              <Package className="h-4 w-4" aria-hidden />
              {w('yourOrders')}
            </a>
          </div>
        </Sheet.Content>
      </Sheet.Portal>
    </Sheet.Root>
  );
}

/** the cart icon with the quantity badge; it opens the drawer */
function CartButton({ className }: { className?: string }) {
  const cart = useCart();
  const quantity = cart.data ? orderQuantity(cart.data.ordersToProducts) : 0;
  const w = useEcommerceWords();
  // in the header's bar it looks like the bar's other buttons; floating, a round dark button (floating.tsx)
  const inBar = useInHeaderSlot();
  return (
    <button
      type="button"
      onClick={(e) => cartDrawer.open(e.currentTarget)}
      aria-label={quantity === 1 ? w('openCartOne') : w('openCart', { count: quantity })}
      className={cn(
        'relative inline-flex items-center justify-center focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
        inBar ? 'h-10 w-10 rounded-md text-slate-700 transition-colors hover:bg-slate-100' : 'h-14 w-14 rounded-full bg-slate-900 text-white shadow-lg transition-transform hover:scale-105',
        className,
      )}
    >
      <ShoppingCart className="h-6 w-6" aria-hidden />
      {quantity > 0 && (
        <span
          data-testid="cart-badge"
          className={cn(
            'absolute inline-flex items-center justify-center rounded-full bg-blue-600 font-bold tabular-nums text-white ring-2 ring-white',
            inBar ? '-right-0.5 -top-0.5 h-5 min-w-5 px-1 text-[11px]' : '-right-1 -top-1 h-6 min-w-6 px-1.5 text-xs',
          )}
        >
          {quantity > 99 ? '99+' : quantity}
        </span>
      )}
    </button>
  );
}

/**
 * ecommerce widget 'cart-default' (a layout widget): for a signed-in subject, the cart button and the
 * drawer; nothing for visitors (and nothing in the server's HTML, which never holds a subject's data).
 */
export function CartWidget({ row }: { row: Expanded }) {
  const { status } = useSubject();
  useEffect(() => cartDrawer.host(), []);
  if (status !== 'signed-in') return null;
  return (
    <>
      {/* in the header's bar; on a page without one it floats over the bottom right corner (floating.tsx) */}
      <Floating>
        <CartButton className={row.className as string | undefined} />
      </Floating>
      <CartSheet />
    </>
  );
}

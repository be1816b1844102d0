import { useEffect, useId, useRef, useState } from 'react';
import { Loader2, LogIn, Minus, Plus, ShoppingCart, Trash2, Zap } from 'lucide-react';
import { Button } from '../../../web/ui/button.js';
import { Input } from '../../../web/ui/input.js';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { useT, type Expanded } from '../../../web/storefront/context.js';
import { ROUTES, useSubject } from '../../rbac/web/session.js';
import { ButtonLink } from '../../rbac/web/ui.js';
import { lineTotal, productPriceList } from '../pricing.js';
import { CartSheet } from './cart.js';
import { CheckoutForm } from './checkout-form.js';
import { cartDrawer, shopPath, shopRequest, useCart, useCartChange, useCartDrawer, type CheckoutAnswer } from './shop-api.js';
import { useEcommerceWords } from './words.js';

const MAX = 10_000;

/** when the page has no cart widget of its own, the product brings the drawer its Checkout opens */
function OwnDrawer() {
  const { hosted } = useCartDrawer();
  return hosted ? null : <CartSheet />;
}

/** the product is in the cart: its quantity with update and delete, and checkout */
function InCart({ title, orderId, line }: { title: string; orderId: string; line: { id: string; quantity: number } }) {
  const change = useCartChange();
  const w = useEcommerceWords();
  const set = (quantity: number) => change.mutate({ method: 'PATCH', path: `/orders/${orderId}`, data: { ordersToProducts: [{ id: line.id, quantity }] }, done: w('updated') });
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm font-medium text-green-700" tabIndex={-1} data-focus-after-change>{w('inCart')}</p>
      <div className="flex flex-wrap items-center gap-2" aria-busy={change.isPending}>
        <div className="flex items-center gap-1 rounded-md border border-slate-300 p-0.5">
          <Button size="icon" variant="ghost" aria-label={w('decrease', { title })} disabled={change.isPending || line.quantity <= 1} onClick={() => set(line.quantity - 1)}>
            <Minus className="h-4 w-4" aria-hidden />
          </Button>
          <span className="min-w-10 px-1 text-center font-semibold tabular-nums" aria-label={w('quantityInCart')}>{line.quantity}</span>
          <Button size="icon" variant="ghost" aria-label={w('increase', { title })} disabled={change.isPending} onClick={() => set(line.quantity + 1)}>
            <Plus className="h-4 w-4" aria-hidden />
          </Button>
        </div>
        <Button
          variant="outline"
          disabled={change.isPending}
          onClick={() => change.mutate({ method: 'DELETE', path: `/orders/${orderId}`, data: { ordersToProducts: [{ id: line.id }] }, done: w('deleted') })}
          className="text-red-700"
        >
          <Trash2 className="h-4 w-4" aria-hidden />
          {w('delete')}
        </Button>
        <Button variant="primary" onClick={(e) => cartDrawer.open(e.currentTarget)}>
          <ShoppingCart className="h-4 w-4" aria-hidden />
          {w('checkout')}
        </Button>
      </div>
    </div>
  );
}

/** a typed quantity as a whole number of items from 1 to MAX, or undefined for anything else ('', 0, -2, 1.5, 10001) */
export function quantityOf(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return n >= 1 && n <= MAX ? n : undefined;
}

/**
 * The product is not in the cart: a quantity and 'Add to cart' ('Adding...' while pending). A quantity that is not a
 * whole number from 1 to MAX is never changed into one: the field says so beside it and nothing is added.
 */
function AddToCart({ product, text, setText, invalid, setInvalid }: { product: Expanded; text: string; setText: (v: string) => void; invalid: boolean; setInvalid: (v: boolean) => void }) {
  const change = useCartChange();
  const id = useId();
  const w = useEcommerceWords();
  const add = () => {
    const quantity = quantityOf(text);
    setInvalid(quantity === undefined);
    if (quantity !== undefined) change.mutate({ method: 'POST', path: '/orders', data: { productId: product.id, quantity }, done: w('updated') });
  };
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={id} className="text-sm font-medium text-slate-800">{w('quantity')}</label>
          <Input
            id={id}
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX}
            step={1}
            value={text}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${id}-error` : undefined}
            onChange={(e) => {
              setText(e.target.value);
              if (invalid && quantityOf(e.target.value) !== undefined) setInvalid(false);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') add();
            }}
            className="w-28"
          />
        </div>
        <Button variant="primary" className="h-10" disabled={change.isPending} onClick={add} data-focus-after-change>
          {change.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <ShoppingCart className="h-4 w-4" aria-hidden />}
          {change.isPending ? w('adding') : w('addToCart')}
        </Button>
      </div>
      {invalid && <p id={`${id}-error`} role="alert" className="text-sm text-red-600">{w('quantityRange')}</p>}
    </div>
  );
}

/**
 * product 'cart-default' (spec §2): for a subject whose cart holds the product, update, delete and
 * checkout; otherwise add to cart, and a one step checkout of this product alone. Visitors are asked to
 * sign in; the server renders a placeholder (the cart is the subject's, never in the shared HTML).
 */
export function ProductCart({ row }: { row: Expanded }) {
  const t = useT();
  const w = useEcommerceWords();
  const { status, me } = useSubject();
  const cart = useCart();
  const [text, setText] = useState('1');
  const [invalid, setInvalid] = useState(false);
  // what is typed, when it is a whole number of items from 1 to MAX; the one step checkout's price counts 1 otherwise
  const typed = quantityOf(text);
  const quantity = typed ?? 1;
  const [oneStep, setOneStep] = useState(false);
  const prices = productPriceList(row);
  const title = t(row.title) || String(row.slug ?? '');
  const line = cart.data?.ordersToProducts.find((l) => l.productId === row.id);
  const loading = status === 'loading' || (me && cart.isPending);
  const controls = useRef<HTMLDivElement>(null);
  // whether the product is in the cart, once known; the first answer moves no focus
  const inCart = loading || !me ? undefined : !!(line && cart.data);
  const shownBefore = useRef<boolean | undefined>(undefined);
  useEffect(() => {
    const before = shownBefore.current;
    shownBefore.current = inCart;
    if (inCart === undefined || before === undefined || before === inCart) return;
    // the control just used (Add to cart, Delete) went with its state, and the focus with it to the page's start:
    // it goes on to the new state's first control ('In your cart', Add to cart). Focus elsewhere is left alone.
    const active = document.activeElement;
    if (active && active !== document.body && active !== document.documentElement) return;
    controls.current?.querySelector<HTMLElement>('[data-focus-after-change]')?.focus();
  }, [inCart]);

  if (loading) return <Skeleton className="h-20 w-full max-w-md" />;
  if (!me) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <ButtonLink to={ROUTES.selectMethod} variant="primary">
          <LogIn className="h-4 w-4" aria-hidden />
          {w('loginToBuy')}
        </ButtonLink>
        <span className="text-sm text-slate-500">{w('signInToAdd')}</span>
      </div>
    );
  }
  if (!prices.length) return <p className="text-sm text-slate-500">{w('notForSale')}</p>;
  return (
    <div ref={controls} className="flex max-w-md flex-col gap-4">
      {line && cart.data ? <InCart title={title} orderId={cart.data.id} line={line} /> : <AddToCart product={row} text={text} setText={setText} invalid={invalid} setInvalid={setInvalid} />}
      <div>
        <Button variant="link" className="h-auto px-0" aria-expanded={oneStep} onClick={() => setOneStep((v) => !v)}>
          <Zap className="h-4 w-4" aria-hidden />
          {oneStep ? w('hideOneStep') : w('buyOneStep')}
        </Button>
        {oneStep && (
          <CheckoutForm
            className="mt-3 rounded-xl border border-slate-200 bg-slate-50 p-4"
            totals={lineTotal({ quantity: line ? line.quantity : quantity, prices })}
            label={w('oneStepCheckout')}
            submit={async (input) => {
              // a quantity out of range is refused here too, beside its field, rather than bought as another number
              if (!line && typed === undefined) {
                setInvalid(true);
                throw new Error(w('quantityRange'));
              }
              return shopRequest<CheckoutAnswer>('POST', shopPath(me.id, `/products/${row.id}/checkout`), {
                data: { provider: input.provider, email: input.email, comment: input.comment, language: input.language, quantity: line ? line.quantity : quantity, billingModule: { currency: { id: input.currencyId } } },
              });
            }}
          />
        )}
      </div>
      <OwnDrawer />
    </div>
  );
}

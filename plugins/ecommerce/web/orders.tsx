import { useEffect, useState } from 'react';
import { LogIn, Package } from 'lucide-react';
import { Skeleton } from '../../../web/ui/skeleton.js';
import type { Expanded } from '../../../web/storefront/context.js';
import { ROUTES } from '../../rbac/web/session.js';
import { ButtonLink } from '../../rbac/web/ui.js';
import { Section, SectionHeader } from './parts.js';
import { OrderCard } from './order-card.js';
import { useOrders } from './shop-api.js';
import { useEcommerceWords } from './words.js';
import { useWords } from '../../../web/storefront/words.js';

/** ?order=<id>&payment=canceled, as the payment provider sends the buyer back (read after hydration) */
function useReturn() {
  const [back, setBack] = useState<{ order?: string; canceled: boolean }>({ canceled: false });
  useEffect(() => {
    const q = new URLSearchParams(window.location.search);
    setBack({ order: q.get('order') ?? undefined, canceled: q.get('payment') === 'canceled' });
  }, []);
  return back;
}

/**
 * ecommerce widget 'order-list-default': the subject's orders page, newest first, each an order card
 * ('Order #{id}') with its status and, once paid, its receipt. Coming back from a payment, the order is
 * marked and a line says how it went. Session-dependent: fetched in the browser, a skeleton before.
 */
export function OrderListDefault({ row }: { row: Expanded }) {
  const { data, isPending, isError, status } = useOrders();
  const w = useEcommerceWords();
  const sw = useWords();
  const back = useReturn();
  const returned = data?.find((o) => o.id === back.order);
  const orders = data?.filter((o) => o.type === 'history') ?? [];
  return (
    <Section row={row}>
      <SectionHeader row={{ ...row, title: row.title && Object.values(row.title as object).some(Boolean) ? row.title : w('yourOrders') }} />
      {status === 'signed-out' ? (
        <div className="flex flex-col items-start gap-3 rounded-xl border border-slate-200 bg-white p-6">
          <p className="text-slate-700">{w('signInToSeeOrders')}</p>
          <ButtonLink to={ROUTES.selectMethod} variant="primary"><LogIn className="h-4 w-4" aria-hidden />{sw('login')}</ButtonLink>
        </div>
      ) : status === 'loading' || isPending ? (
        <div className="grid gap-4 lg:grid-cols-2" aria-busy>
          <Skeleton className="h-48 w-full" />
          <Skeleton className="h-48 w-full" />
        </div>
      ) : isError ? (
        <p role="alert" className="text-red-700">{w('ordersFailed')}</p>
      ) : (
        <>
          {returned && (
            <p role="status" className={back.canceled || returned.status === 'canceled' ? 'mb-6 rounded-lg bg-amber-50 px-4 py-3 text-amber-900' : 'mb-6 rounded-lg bg-green-50 px-4 py-3 text-green-900'}>
              {back.canceled || returned.status === 'canceled'
                ? w('paymentCanceled', { id: returned.id })
                : returned.status === 'paying'
                  ? w('paymentWaiting', { id: returned.id })
                  : w('paymentReceived', { id: returned.id })}
            </p>
          )}
          {orders.length ? (
            <div role="list" aria-label={w('orders')} className="grid items-start gap-4 lg:grid-cols-2">
              {orders.map((o) => (
                <div role="listitem" key={o.id}>
                  <OrderCard order={o} highlighted={o.id === back.order} />
                </div>
              ))}
            </div>
          ) : (
            <div className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-slate-300 py-16 text-center text-slate-600">
              <Package className="h-10 w-10 text-slate-300" aria-hidden />
              <p className="font-medium text-slate-900">{w('noOrders')}</p>
              <p className="text-sm">{w('noOrdersText')}</p>
            </div>
          )}
        </>
      )}
    </Section>
  );
}

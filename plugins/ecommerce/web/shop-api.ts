import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../../runtime/client/index.js';
import { http, messageOf, refreshSession, useSubject } from '../../rbac/web/session.js';
import type { Currency, Price } from '../pricing.js';

/** an order as the shop's routes answer it (plugins/ecommerce/server/orders.ts OrderView) */
export interface OrderLine {
  id: string;
  orderId: string;
  productId: string;
  quantity: number;
  product: { id: string; slug: string; title: unknown; adminTitle: string; type: string };
  prices: Price[];
  totals: Price[];
}
export interface Order {
  id: string;
  variant?: string;
  status: string;
  type: string;
  receipt: string;
  comment: string | null;
  createdAt: string;
  ordersToProducts: OrderLine[];
  totals: Price[];
  quantity: number;
  currency: Currency | null;
  invoices: { id: string; status: string; provider: string; amount: number; paymentUrl: string | null }[];
}
export interface CheckoutAnswer {
  billingModule: { invoices: { id: string; paymentUrl: string }[] };
}

/** the subject's orders page (the demo's host page; payments send the buyer back there) */
export const ORDERS_PAGE = '/ecommerce/orders';

export const shopPath = (subjectId: string, rest = '') => `/api/rbac/subjects/${subjectId}/ecommerce-module${rest}`;

/** a call as the signed-in subject: an expired session is refreshed once and the call made again */
export async function shopRequest<T>(method: string, path: string, init: { data?: unknown; query?: unknown } = {}): Promise<T> {
  try {
    return await http.request<T>(method, path, init);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401 || !(await refreshSession())) throw e;
    return http.request<T>(method, path, init);
  }
}

const KEY = ['ecommerce'] as const;
export const ordersKey = (subjectId: string | undefined, type?: 'cart' | 'history') => [...KEY, 'orders', subjectId ?? null, type ?? 'all'] as const;

/** the subject's cart (its order of type cart), or null; undefined while unknown */
export function useCart() {
  const { me } = useSubject();
  const query = useQuery({
    queryKey: ordersKey(me?.id, 'cart'),
    queryFn: async () => (await shopRequest<Order[]>('GET', shopPath(me!.id, '/orders'), { query: { type: 'cart' } }))[0] ?? null,
    enabled: !!me,
    staleTime: 0,
  });
  return { ...query, subjectId: me?.id };
}

/** the subject's orders, newest first */
export function useOrders() {
  const { me, status } = useSubject();
  const query = useQuery({ queryKey: ordersKey(me?.id), queryFn: () => shopRequest<Order[]>('GET', shopPath(me!.id, '/orders'), { query: { type: 'all' } }), enabled: !!me, staleTime: 0 });
  return { ...query, status, me };
}

/** the billing currencies (public) */
export function useCurrencies() {
  return useQuery({ queryKey: ['billing', 'currencies'], queryFn: () => http.request<(Currency & { isDefault: boolean })[]>('GET', '/api/billing/currencies', { query: { limit: 100 } }) });
}

/** the payment providers switched on, and the default one */
export function useProviders() {
  return useQuery({ queryKey: ['billing', 'providers'], queryFn: () => http.request<{ providers: string[]; default: string | null }>('GET', '/api/billing/providers') });
}

/**
 * A change to the cart: runs the call, refreshes every shop query, and toasts the outcome (spec §4:
 * 'Updated successfully'; errors show their message).
 * @example const add = useCartChange(); add.mutate({ method: 'POST', path: '/orders', data, done: 'Updated successfully' });
 */
export function useCartChange() {
  const qc = useQueryClient();
  const { me } = useSubject();
  return useMutation({
    mutationFn: ({ method, path, data }: { method: string; path: string; data?: unknown; done?: string }) => shopRequest<Order>(method, shopPath(me!.id, path), { data }),
    onSuccess: (_, { done }) => {
      if (done) toast.success(done);
      return qc.invalidateQueries({ queryKey: KEY });
    },
    onError: (e) => toast.error(messageOf(e)),
  });
}

/** the cart drawer's open state, shared by the cart button and the products' Checkout buttons */
let open = false;
let hosts = 0;
/** what opened the drawer (the cart button, a product's Checkout): focus goes back to it when the drawer closes */
let opener: HTMLElement | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
export const cartDrawer = {
  /** opens the drawer; `from` (else the focused element) gets the focus back once it closes */
  open(from?: unknown) {
    if (typeof document !== 'undefined') {
      const focused = document.activeElement;
      opener = from instanceof HTMLElement ? from : focused instanceof HTMLElement && focused !== document.body ? focused : null;
    }
    open = true;
    emit();
  },
  /**
   * Where the focus goes as the drawer closes: back to what opened it when that is still on the page, as the
   * account menu does (a drawer opened without a trigger of its own would leave the focus on <body>).
   * @returns whether it was moved
   */
  restoreFocus(): boolean {
    const target = opener;
    opener = null;
    if (!target?.isConnected) return false;
    target.focus();
    return true;
  },
  set(value: boolean) {
    open = value;
    emit();
  },
  /** a drawer mounted on the page (the layout's cart widget) */
  host() {
    hosts++;
    emit();
    return () => {
      hosts--;
      emit();
    };
  },
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
export const useCartDrawer = () => ({
  open: useSyncExternalStore(subscribe, () => open, () => false),
  hosted: useSyncExternalStore(subscribe, () => hosts > 0, () => false),
});

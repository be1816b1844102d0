import { createContext, useContext, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../../web/ui/cn.js';
import type { Expanded } from '../../../web/storefront/context.js';
import { formatPrice, productPriceList, type Currency, type Price } from '../pricing.js';
import { useEcommerceWords } from './words.js';

/** the code a currency is shown by: its slug in capitals (USD, RUB) */
export const currencyCode = (c: Currency) => String(c.slug ?? '').toUpperCase() || String(c.symbol ?? '');

/** the currency to start with: the default one among those offered, else the first */
export const initialCurrency = (prices: Price[]) => (prices.find((p) => p.currency.isDefault) ?? prices[0])?.currency.id;

/**
 * A toggle group of currencies (spec §2): a radio group, one chosen; arrow keys move and choose, as
 * in any radio group.
 */
export function CurrencyToggleGroup({ currencies, value, onChange, label: ownLabel, className }: { currencies: Currency[]; value: string | undefined; onChange: (id: string) => void; label?: string; className?: string }) {
  const w = useEcommerceWords();
  const label = ownLabel ?? w('currency');
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  if (!currencies.length) return null;
  const index = Math.max(0, currencies.findIndex((c) => c.id === value));
  const onKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = (index + step + currencies.length) % currencies.length;
    onChange(currencies[next].id);
    refs.current[next]?.focus();
  };
  return (
    <div role="radiogroup" aria-label={label} onKeyDown={onKey} className={cn('inline-flex rounded-lg border border-slate-300 bg-slate-100 p-1', className)}>
      {currencies.map((c, i) => {
        const checked = i === index;
        return (
          <button
            key={c.id}
            ref={(el) => void (refs.current[i] = el)}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            onClick={() => onChange(c.id)}
            className={cn(
              'min-w-14 rounded-md px-3 py-1.5 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
              checked ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {currencyCode(c)}
          </button>
        );
      })}
    </div>
  );
}

/** the currency a product's page shows its price in, chosen with the product's toggle group */
const Selected = createContext<{ value: string | undefined; set: (id: string) => void } | null>(null);

export function SelectedCurrency({ product, children }: { product: Expanded; children: ReactNode }) {
  const [value, set] = useState(() => initialCurrency(productPriceList(product)));
  return <Selected.Provider value={{ value, set }}>{children}</Selected.Provider>;
}

export const useSelectedCurrency = () => useContext(Selected);

/** product 'currency-toggle-group-default': the currencies the product is priced in, when there are several */
export function ProductCurrencyToggleGroup({ row }: { row: Expanded }) {
  const selected = useSelectedCurrency();
  const prices = productPriceList(row);
  if (!selected || prices.length < 2) return null;
  return <CurrencyToggleGroup currencies={prices.map((p) => p.currency)} value={selected.value} onChange={selected.set} />;
}

/**
 * product 'price-default': the product's price in the chosen currency, large, and the others beside it;
 * every price when no currency is chosen.
 */
export function ProductPrice({ row, className }: { row: Expanded; className?: string }) {
  const selected = useSelectedCurrency();
  const prices = productPriceList(row);
  if (!prices.length) return null;
  const chosen = prices.find((p) => p.currency.id === selected?.value);
  return (
    <p className={cn('prices', className)} data-testid="prices">
      {(chosen ? [chosen] : prices).map((p) => (
        <span key={p.currency.id}>{formatPrice(p)}</span>
      ))}
      {chosen && prices.length > 1 && (
        <span className="text-base font-normal text-slate-500">
          {prices
            .filter((p) => p !== chosen)
            .map(formatPrice)
            .join(' · ')}
        </span>
      )}
    </p>
  );
}

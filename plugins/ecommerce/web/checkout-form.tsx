import { useId, useState, type FormEvent } from 'react';
import { CreditCard, Loader2 } from 'lucide-react';
import { Button } from '../../../web/ui/button.js';
import { Textarea } from '../../../web/ui/input.js';
import { cn } from '../../../web/ui/cn.js';
import { browser, useSubject } from '../../rbac/web/session.js';
import { ActionForm, Field, FormAlert, useAction, useChecks } from '../../rbac/web/ui.js';
import { formatPrice, priceIn, type Price } from '../pricing.js';
import { CurrencyToggleGroup, initialCurrency } from './currency.js';
import { useProviders, type CheckoutAnswer } from './shop-api.js';
import { useEcommerceWords } from './words.js';
import { useWords } from '../../../web/storefront/words.js';
import { usePage } from '../../../web/storefront/context.js';

export const NO_PRICE = "Product doesn't have price attributes connected to billing module currency.";

/** the providers named in the select (words 'provider.<name>'); another is shown by its name */
export const PROVIDERS = ['dummy', 'stripe', 'cloudpayments', 'tiptoppay', 'payselection', 'payselection-international', '0xprocessing'] as const;
const isKnownProvider = (p: string): p is (typeof PROVIDERS)[number] => (PROVIDERS as readonly string[]).includes(p);

export interface CheckoutInput {
  provider: string;
  email: string;
  comment?: string;
  currencyId: string;
  /** the page's language: the payment sends the buyer back to the orders page in it */
  language: string;
}

/**
 * The checkout form (spec §2): currency toggle group, provider select, invoice email, comment, and the
 * button with the price in the chosen currency. On success the browser goes to the invoice's payment
 * url (spec §4); the button stays busy until it has left. With no provider switched on (or none known, the
 * list having failed) a message stands in for the select and says why the button is disabled.
 */
export function CheckoutForm({ totals, label, submit, className }: { totals: Price[]; label: string; submit: (input: CheckoutInput) => Promise<CheckoutAnswer>; className?: string }) {
  const { me } = useSubject();
  const { language } = usePage();
  const w = useEcommerceWords();
  const check = useChecks();
  const providers = useProviders();
  const id = useId();
  const ownEmail = me?.identities.find((i) => i.provider === 'email_and_password' && i.email)?.email ?? '';
  const [email, setEmail] = useState(ownEmail);
  const [emailError, setEmailError] = useState<string>();
  const [comment, setComment] = useState('');
  const [currencyId, setCurrencyId] = useState(() => initialCurrency(totals));
  const [chosenProvider, setProvider] = useState<string>();
  const [leaving, setLeaving] = useState(false);
  const action = useAction();
  const provider = chosenProvider ?? providers.data?.default ?? providers.data?.providers[0];
  /** why no provider can be chosen: none is switched on, or the list could not be loaded */
  const noProvider = providers.data?.providers.length === 0 ? w('noProviders') : !providers.data && providers.isError ? w('providersFailed') : undefined;
  const price = priceIn(totals, currencyId) ?? totals[0];

  if (!totals.length) return <FormAlert>{w('noPrice')}</FormAlert>;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = check.email(email);
    setEmailError(problem);
    if (problem || !provider || !price) return;
    await action.run(async () => {
      const answer = await submit({ provider, email: email.trim(), ...(comment.trim() && { comment: comment.trim() }), currencyId: price.currency.id, language });
      setLeaving(true);
      browser.go(answer.billingModule.invoices[0].paymentUrl);
    });
  };

  const busy = action.pending || leaving;
  return (
    <ActionForm action={action} onSubmit={onSubmit} noValidate aria-label={label} className={cn('flex flex-col gap-4', className)}>
      {totals.length > 1 && (
        <div className="flex flex-col gap-1.5">
          <span aria-hidden className="text-sm font-medium text-slate-800">{w('currency')}</span>
          <CurrencyToggleGroup currencies={totals.map((p) => p.currency)} value={price?.currency.id} onChange={setCurrencyId} label={w('currency')} className="self-start" />
        </div>
      )}
      <ProviderField id={`${id}-provider`} providers={providers.data?.providers} value={provider} onChange={setProvider} unavailable={noProvider} />
      <Field label={w('invoiceEmail')} type="email" autoComplete="email" placeholder="you@example.com" value={email} onChange={(e) => setEmail(e.target.value)} error={emailError} />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-comment`} className="text-sm font-medium text-slate-800">{w('comment')}</label>
        <Textarea id={`${id}-comment`} rows={2} maxLength={2000} placeholder={w('commentPlaceholder')} value={comment} onChange={(e) => setComment(e.target.value)} className="min-h-16" />
      </div>
      <FormAlert>{action.error}</FormAlert>
      <Button type="submit" variant="primary" disabled={busy || !provider} aria-describedby={noProvider ? `${id}-provider-none` : undefined} className="h-11 w-full text-base">
        {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <CreditCard className="h-4 w-4" aria-hidden />}
        {busy ? w('redirecting') : `${label} ${price ? formatPrice(price) : ''}`.trim()}
      </Button>
    </ActionForm>
  );
}

/**
 * 'Payment provider': the select of the providers switched on, or, when none can be chosen, the reason in its
 * place (an empty select explains nothing); `${id}-none` names that message for the disabled button.
 */
function ProviderField({ id, providers, value, onChange, unavailable }: { id: string; providers?: string[]; value?: string; onChange: (provider: string) => void; unavailable?: string }) {
  const w = useEcommerceWords();
  const sw = useWords();
  if (unavailable) {
    return (
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium text-slate-800">{w('paymentProvider')}</span>
        <p id={`${id}-none`} role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">{unavailable}</p>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">{w('paymentProvider')}</label>
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value)}
        disabled={!providers}
        className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/20"
      >
        {!providers && <option value="">{sw('loading')}</option>}
        {providers?.map((p) => (
          <option key={p} value={p}>{isKnownProvider(p) ? w(`provider.${p}`) : p}</option>
        ))}
      </select>
    </div>
  );
}

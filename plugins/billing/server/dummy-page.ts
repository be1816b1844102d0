import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Context, Hono } from 'hono';
import { UUID_RE } from '../../../engine/fields/index.js';
import { HttpError } from '../../../runtime/http/errors.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import { DUMMY_SIGNATURE_HEADER, dummyPagePath, minorDigits, sameText, toMinor, type dummyProvider, type DummyEvent } from './providers/index.js';

type Dummy = ReturnType<typeof dummyProvider>;

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** a url of this site (the invoice's success or cancel url) as a local path: never a redirect elsewhere */
function localPath(url: unknown): string {
  try {
    const u = new URL(String(url), 'http://local');
    return u.pathname.startsWith('/') && !u.pathname.startsWith('//') ? `${u.pathname}${u.search}` : '/';
  } catch {
    return '/';
  }
}

/** the page's words: in the buyer's language (the one its return page has), English for any other */
const WORDS = {
  en: {
    payment: 'Payment',
    title: 'Test payment',
    text: "The dummy provider moves no money: confirming marks the invoice paid, as a real provider's webhook would.",
    invoiceFor: 'Invoice for {email}',
    cancel: 'Cancel',
    pay: 'Pay {amount}',
    isNow: 'This payment is {status}',
    nothingMore: 'Nothing more to do here.',
    back: 'Back to the shop',
    'status.open': 'open',
    'status.paid': 'paid',
    'status.canceled': 'canceled',
    'status.failed': 'failed',
    'status.refunded': 'refunded',
  },
  ru: {
    payment: 'Оплата',
    title: 'Тестовая оплата',
    text: 'Тестовый провайдер не списывает деньги: подтверждение отмечает счёт оплаченным, как это сделал бы вебхук настоящего провайдера.',
    invoiceFor: 'Счёт для {email}',
    cancel: 'Отмена',
    pay: 'Оплатить {amount}',
    isNow: 'Статус этого платежа: {status}',
    nothingMore: 'Здесь больше ничего делать не нужно.',
    back: 'Вернуться в магазин',
    'status.open': 'открыт',
    'status.paid': 'оплачен',
    'status.canceled': 'отменён',
    'status.failed': 'не прошёл',
    'status.refunded': 'возвращён',
  },
} satisfies Record<string, Record<string, string>>;
type Language = keyof typeof WORDS;
type Word = keyof (typeof WORDS)['en'];

/** the page's language: the first segment of the path the payment returns to ('/ru/ecommerce/orders' → 'ru') when it has words, else English */
export function pageLanguage(successUrl: unknown, languages: string[]): Language {
  const first = localPath(successUrl).split('/')[1] ?? '';
  return languages.includes(first) && Object.hasOwn(WORDS, first) ? (first as Language) : 'en';
}

const wordsIn = (language: Language) => (key: Word, vars: Record<string, string> = {}) => (WORDS[language][key] ?? WORDS.en[key]).replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(vars, name) ? vars[name] : whole));

function page(language: Language, title: string, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>body{margin:0;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a}main{max-width:28rem;margin:10vh auto;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;box-shadow:0 1px 3px #0001}h1{font-size:1.4rem;margin:0 0 .5rem}p{color:#475569;line-height:1.5}.amount{font-size:2rem;font-weight:700;color:#0f172a;margin:1.5rem 0}.row{display:flex;gap:.75rem;margin-top:1.5rem}button,a.button{flex:1;height:2.75rem;border-radius:.375rem;font:600 .95rem system-ui,sans-serif;border:1px solid #cbd5e1;background:#fff;color:#0f172a;cursor:pointer;text-align:center;text-decoration:none;line-height:2.75rem}button.pay{background:#2563eb;border-color:#2563eb;color:#fff}button:focus-visible,a.button:focus-visible{outline:2px solid #2563eb;outline-offset:2px}</style>
</head><body><main>${body}</main></body></html>`;
}

/**
 * The dummy provider's payment page (GET) and its confirmation (POST), at /billing/dummy/checkout/:id?token=…
 * The token is an HMAC of the invoice id only this server can make. Confirming builds a signed webhook and
 * delivers it to this server's own webhook route through the whole request pipeline, then sends the buyer
 * back to the invoice's success (or cancel) page.
 */
export function dummyPageRoutes(app: Hono, ctx: PluginContext, dummy: Dummy) {
  const invoice = ctx.model.byId['billing/invoice'];
  const t = ctx.database.tables;

  async function open(c: Context) {
    const id = (c.req.param('id') ?? '').toLowerCase();
    const token = c.req.query('token') ?? '';
    if (!UUID_RE.test(id) || !sameText(token, dummy.pageToken(id))) throw new HttpError(404, 'No such payment');
    const row = await ctx.repo.get(invoice, id);
    if (!row || row.provider !== 'dummy') throw new HttpError(404, 'No such payment');
    const links = t['billing/payment-intents-to-invoices'];
    const toCurrency = t['billing/payment-intents-to-currencies'];
    const currencies = t['billing/currency'];
    const [currency] = await ctx.database.db
      .select({ slug: currencies.slug, symbol: currencies.symbol })
      .from(links)
      .innerJoin(toCurrency, eq(toCurrency.paymentIntentId, links.paymentIntentId))
      .innerJoin(currencies, eq(currencies.id, toCurrency.currencyId))
      .where(eq(links.invoiceId, id))
      .limit(1);
    return { id, token, row, currency: currency as { slug: string; symbol: string | null } | undefined };
  }

  const html = (c: Context, text: string, status: 200 | 409 = 200) => c.html(text, status, { 'content-security-policy': CSP, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });

  app.get(dummyPagePath(':id'), async (c) => {
    const { id, token, row, currency } = await open(c);
    const language = pageLanguage(row.successUrl, ctx.model.languages);
    const w = wordsIn(language);
    const amount = `${currency?.symbol ?? ''}${Number(row.amount).toFixed(minorDigits(currency?.slug ?? ''))} ${(currency?.slug ?? '').toUpperCase()}`.trim();
    if (row.status !== 'open') {
      const status = String(row.status);
      const statusWord = `status.${status}`;
      const named = Object.hasOwn(WORDS.en, statusWord) ? w(statusWord as Word) : status;
      return html(c, page(language, w('payment'), `<h1>${escape(w('isNow', { status: named }))}</h1><p>${escape(w('nothingMore'))}</p><div class="row"><a class="button" href="${escape(localPath(row.successUrl))}">${escape(w('back'))}</a></div>`), 409);
    }
    const action = `${dummyPagePath(id)}?token=${encodeURIComponent(token)}`;
    return html(
      c,
      page(
        language,
        w('title'),
        `<h1>${escape(w('title'))}</h1><p>${escape(w('text'))}</p>
<p class="amount" data-testid="amount">${escape(amount)}</p><p>${escape(w('invoiceFor', { email: String(row.email ?? '') }))}</p>
<form method="post" action="${escape(action)}"><div class="row"><button type="submit" name="action" value="cancel">${escape(w('cancel'))}</button><button class="pay" type="submit" name="action" value="pay">${escape(w('pay', { amount }))}</button></div></form>`,
      ),
    );
  });

  app.post(dummyPagePath(':id'), async (c) => {
    const { id, row, currency } = await open(c);
    const form = await c.req.parseBody();
    const pay = form.action === 'pay';
    if (row.status === 'open') {
      const event: DummyEvent = { id: `evt_${randomUUID()}`, type: pay ? 'payment.succeeded' : 'payment.canceled', invoiceId: id, amount: toMinor(Number(row.amount), currency?.slug ?? ''), currency: currency?.slug ?? '' };
      const body = JSON.stringify(event);
      const res = await app.request('/api/billing/webhooks/dummy', { method: 'POST', headers: { 'content-type': 'application/json', [DUMMY_SIGNATURE_HEADER]: dummy.sign(body) }, body });
      if (!res.ok) throw new HttpError(502, 'The payment could not be confirmed, try again');
    }
    return c.redirect(localPath(pay ? row.successUrl : row.cancelUrl), 303);
  });
}

import type { Context, Hono, Next } from 'hono';
import { leavesReads } from '../../../runtime/http/fast-read.js';
import { count, eq } from 'drizzle-orm';
import type { HookSet } from '../../../runtime/crud/hooks.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { Recorder } from './recorder.js';
import { answerHeader } from '../../../runtime/http/wire.js';
import { requestHeader } from '../../../runtime/http/headers.js';

const NOT_PAGES = /^\/(api|admin|assets|files|@|node_modules)(\/|$)|^\/(sitemap\.xml|robots\.txt|favicon\.ico)$/;
const BOTS = /bot|crawl|spider|slurp|preview|headless/i;

/** a storefront page answered: a GET for HTML that found its page, asked by a person's browser */
function isPageView(c: Context): boolean {
  if (c.req.method !== 'GET' || c.res.status !== 200 || NOT_PAGES.test(c.req.path)) return false;
  if (!answerHeader(c.res, 'content-type')?.startsWith('text/html')) return false;
  // the live page's own refresh, prefetches and crawlers are not views
  if (requestHeader(c, 'x-live-refresh') || /prefetch/i.test(requestHeader(c, 'sec-purpose') ?? requestHeader(c, 'purpose') ?? '')) return false;
  return !BOTS.test(requestHeader(c, 'user-agent') ?? '');
}

/** page views: counted in memory once the page is answered (the write comes later, in a batch) */
/**
 * The page a path names, as a page-view's dimension: repeated and trailing slashes dropped, and the default
 * language's prefix too (`/en/about` is `/about`; `/ru/about` stays, a page in another language)
 */
export function viewedPage(path: string, defaultLanguage: string): string {
  const page = path.replace(/\/{2,}/g, '/').replace(/\/+$/, '') || '/';
  if (page === `/${defaultLanguage}`) return '/';
  return page.startsWith(`/${defaultLanguage}/`) ? page.slice(defaultLanguage.length + 1) : page;
}

export function pageViews(app: Hono, recorder: Recorder, defaultLanguage: string) {
  // the API is no page: its reads pass untouched
  app.use('*', leavesReads((c: Context, next: Next) => (c.req.method !== 'GET' || NOT_PAGES.test(c.req.path) ? next() : countPageView(c, next))));
  async function countPageView(c: Context, next: Next) {
    await next();
    if (!isPageView(c)) return;
    let path = c.req.path;
    try {
      path = decodeURIComponent(path);
    } catch {
      /* counted as asked */
    }
    recorder.record('page-view', { dimension: viewedPage(path, defaultLanguage) });
  }
}

/**
 * The key events, from the writes that make them, whoever makes them: a subject's first identity (sign-in method) is a sign-up, an order line a
 * product added to a cart, an invoice a checkout, a payment intent that succeeds a payment (its amount, by
 * currency). A module may record finer ones itself through ctx.services.analytics.record.
 */
export function keyEventHooks(ctx: PluginContext, recorder: Recorder): HookSet {
  async function currencyOf(paymentIntentId: string): Promise<string> {
    const rel = ctx.database.tables['billing/payment-intents-to-currencies'];
    const cur = ctx.database.tables['billing/currency'];
    if (!rel || !cur) return '';
    const [row]: { slug: string | null }[] = await ctx.database.db.select({ slug: cur.slug }).from(rel).innerJoin(cur, eq(rel.currencyId, cur.id)).where(eq(rel.paymentIntentId, paymentIntentId)).limit(1);
    return row?.slug ?? '';
  }
  return {
    // a subject's first sign-in method: an anonymous session's subject (init) or a seeded one is no account yet,
    // and a second login added to an account is no new one
    'rbac/subjects-to-identities': {
      async afterCommit({ operation, row }) {
        if (operation !== 'create' || typeof row.subjectId !== 'string') return;
        const rel = ctx.database.tables['rbac/subjects-to-identities'];
        const [{ n }]: { n: number }[] = await ctx.database.db.select({ n: count() }).from(rel).where(eq(rel.subjectId, row.subjectId));
        if (Number(n) === 1) recorder.record('sign-up');
      },
    },
    'ecommerce/orders-to-products': { afterCommit: ({ operation, row }) => void (operation === 'create' && recorder.record('add-to-cart', { value: Number(row.quantity ?? 1) })) },
    'billing/invoice': { afterCommit: ({ operation }) => void (operation === 'create' && recorder.record('checkout')) },
    'billing/payment-intent': {
      async afterCommit({ operation, row, previous }) {
        if (operation === 'delete' || row.status !== 'succeeded' || previous?.status === 'succeeded') return;
        recorder.record('payment', { value: Number(row.amount ?? 0), dimension: await currencyOf(row.id as string) });
      },
    },
  };
}

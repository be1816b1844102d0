import type { Hono } from 'hono';
import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { billingService, type BillingService } from './invoices.js';
import { dummyPageRoutes } from './dummy-page.js';
import { providersFrom, type dummyProvider } from './providers/index.js';

export type { BillingService, InvoiceInput, WebhookResult } from './invoices.js';
export { lockRow } from '../../../runtime/db/lock.js';

export interface BillingOptions {
  /** where provider settings are read from (default process.env; see README, 'Selling') */
  env?: Record<string, string | undefined>;
}

function routes(app: Hono, ctx: PluginContext) {
  const billing = ctx.services.billing as BillingService;

  /** POST /api/billing/webhooks/:provider (public; each provider's signature is checked on the raw body) */
  app.post('/api/billing/webhooks/:provider', async (c) => {
    const provider = c.req.param('provider');
    const body = await c.req.text();
    const result = await billing.handleWebhook(provider, { body, headers: c.req.raw.headers, url: billing.webhookUrl(provider as never) });
    const ack = result.acknowledgement;
    return c.json('received' in ack ? { data: { received: true, duplicate: result.duplicate, outcome: result.outcome } } : ack);
  });

  /** GET /api/billing/providers (public): the providers a checkout may name, and the default one */
  app.get('/api/billing/providers', (c) => c.json({ data: { providers: billing.providers.enabled, default: billing.providers.defaultProvider ?? null } }));

  const dummy = billing.providers.get('dummy');
  if (dummy) dummyPageRoutes(app, ctx, dummy as ReturnType<typeof dummyProvider>);
}

/**
 * The billing module: payment providers behind one interface (providers/), invoices and payment intents
 * (ctx.services.billing), verified and idempotent webhooks, and the dummy provider's payment page.
 */
export function createBillingPlugin(options: BillingOptions = {}): Plugin {
  return {
    name: 'billing',
    services: (ctx) => ({ billing: billingService(ctx, providersFrom(options.env ?? process.env, ctx.config)) }),
    routes,
    defaults: seedFile(new URL('../defaults.json', import.meta.url)),
  };
}

export const billing = createBillingPlugin();

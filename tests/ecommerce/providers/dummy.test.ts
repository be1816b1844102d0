import { createHmac } from 'node:crypto';
import { dummyProvider } from '../../../plugins/billing/server/providers/dummy.js';
import { runProviderCases } from './providers.case.js';

/** the offline provider: no API; its webhooks are signed with a secret derived from RBAC_JWT_SECRET (or BILLING_DUMMY_SECRET) */
runProviderCases({
  name: 'dummy',
  env: () => ({}),
  paid(e, at, forged) {
    const secret = forged ? 'a-guess' : createHmac('sha256', at.config.rbacJwtSecret).update('billing-dummy-provider').digest('hex');
    const body = JSON.stringify({ id: e.eventId, type: 'payment.succeeded', invoiceId: e.invoiceId, amount: e.amount, currency: e.currency });
    return { body, headers: { 'content-type': 'application/json', 'x-dummy-signature': dummyProvider(secret).sign(body) } };
  },
});

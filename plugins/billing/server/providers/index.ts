import { createHmac } from 'node:crypto';
import type { Config } from '../../../../runtime/config.js';
import { cloudPaymentsProvider } from './cloudpayments.js';
import { dummyProvider } from './dummy.js';
import { oxProcessingProvider } from './oxprocessing.js';
import { payselectionProvider } from './payselection.js';
import { isProviderName, PROVIDER_NAMES, type PaymentProvider, type ProviderName } from './provider.js';
import { stripeProvider } from './stripe.js';

export * from './provider.js';
export { dummyProvider, DUMMY_SIGNATURE_HEADER, dummyPagePath, type DummyEvent } from './dummy.js';

type Env = Record<string, string | undefined>;

/**
 * Each provider is switched on by its own variables (README, 'Selling'); the dummy one is on unless
 * BILLING_DUMMY=off, and in production only with BILLING_DUMMY=on (it moves no money).
 */
export const PROVIDER_SETTINGS: Record<ProviderName, { required: string[]; optional?: string[] }> = {
  dummy: { required: [], optional: ['BILLING_DUMMY', 'BILLING_DUMMY_SECRET'] },
  stripe: { required: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'], optional: ['STRIPE_API_URL'] },
  cloudpayments: { required: ['CLOUDPAYMENTS_PUBLIC_ID', 'CLOUDPAYMENTS_API_SECRET'], optional: ['CLOUDPAYMENTS_API_URL'] },
  tiptoppay: { required: ['TIPTOPPAY_PUBLIC_ID', 'TIPTOPPAY_API_SECRET'], optional: ['TIPTOPPAY_API_URL'] },
  payselection: { required: ['PAYSELECTION_SITE_ID', 'PAYSELECTION_SECRET_KEY'], optional: ['PAYSELECTION_API_URL'] },
  'payselection-international': {
    required: ['PAYSELECTION_INTERNATIONAL_SITE_ID', 'PAYSELECTION_INTERNATIONAL_SECRET_KEY'],
    optional: ['PAYSELECTION_INTERNATIONAL_API_URL'],
  },
  '0xprocessing': { required: ['OXPROCESSING_MERCHANT_ID', 'OXPROCESSING_WEBHOOK_PASSWORD'], optional: ['OXPROCESSING_COIN', 'OXPROCESSING_API_URL', 'OXPROCESSING_TEST'] },
};

function build(name: ProviderName, env: Env, config: Config): PaymentProvider {
  switch (name) {
    case 'dummy':
      return dummyProvider(env.BILLING_DUMMY_SECRET || createHmac('sha256', config.rbacJwtSecret).update('billing-dummy-provider').digest('hex'));
    case 'stripe':
      return stripeProvider({ secretKey: env.STRIPE_SECRET_KEY!, webhookSecret: env.STRIPE_WEBHOOK_SECRET!, apiUrl: env.STRIPE_API_URL });
    case 'cloudpayments':
      return cloudPaymentsProvider('cloudpayments', { publicId: env.CLOUDPAYMENTS_PUBLIC_ID!, apiSecret: env.CLOUDPAYMENTS_API_SECRET!, apiUrl: env.CLOUDPAYMENTS_API_URL || 'https://api.cloudpayments.ru' });
    case 'tiptoppay':
      return cloudPaymentsProvider('tiptoppay', { publicId: env.TIPTOPPAY_PUBLIC_ID!, apiSecret: env.TIPTOPPAY_API_SECRET!, apiUrl: env.TIPTOPPAY_API_URL || 'https://api.tiptoppay.kz' });
    case 'payselection':
      return payselectionProvider('payselection', { siteId: env.PAYSELECTION_SITE_ID!, secretKey: env.PAYSELECTION_SECRET_KEY!, apiUrl: env.PAYSELECTION_API_URL || 'https://webform.payselection.com' });
    case 'payselection-international':
      return payselectionProvider('payselection-international', {
        siteId: env.PAYSELECTION_INTERNATIONAL_SITE_ID!,
        secretKey: env.PAYSELECTION_INTERNATIONAL_SECRET_KEY!,
        apiUrl: env.PAYSELECTION_INTERNATIONAL_API_URL || 'https://webform.payselection.com',
      });
    case '0xprocessing':
      return oxProcessingProvider({
        merchantId: env.OXPROCESSING_MERCHANT_ID!,
        webhookPassword: env.OXPROCESSING_WEBHOOK_PASSWORD!,
        coin: env.OXPROCESSING_COIN || 'USDT (TRC20)',
        apiUrl: env.OXPROCESSING_API_URL || 'https://app.0xprocessing.com',
        test: env.OXPROCESSING_TEST === 'true',
      });
  }
}

function enabled(name: ProviderName, env: Env, config: Config): boolean {
  if (name === 'dummy') return env.BILLING_DUMMY === 'on' || (!config.production && env.BILLING_DUMMY !== 'off');
  return PROVIDER_SETTINGS[name].required.every((k) => !!env[k]);
}

export interface ProviderRegistry {
  /** the switched-on providers, in the spec's order */
  readonly enabled: readonly ProviderName[];
  /** BILLING_DEFAULT_PROVIDER when it is on, else dummy when on, else the first one on */
  readonly defaultProvider: ProviderName | undefined;
  get(name: ProviderName): PaymentProvider | undefined;
}

/** the providers this installation accepts, from the environment */
export function providersFrom(env: Env, config: Config): ProviderRegistry {
  const on = PROVIDER_NAMES.filter((n) => enabled(n, env, config));
  const built = new Map<ProviderName, PaymentProvider>(on.map((n) => [n, build(n, env, config)]));
  const wanted = env.BILLING_DEFAULT_PROVIDER;
  const defaultProvider = isProviderName(wanted) && on.includes(wanted) ? wanted : on.includes('dummy') ? 'dummy' : on[0];
  return { enabled: on, defaultProvider, get: (name) => built.get(name) };
}

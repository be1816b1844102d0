import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { bootApp } from '../helpers/app.js';
import { ADMIN_EMAIL, GENEROUS, ROUTES } from '../helpers/accounts.js';
import type { TestDatabase } from '../helpers/databases.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { createBillingPlugin } from '../../plugins/billing/server/index.js';
import { ecommerce } from '../../plugins/ecommerce/server/index.js';
import { fileStorage } from '../../plugins/file-storage/server/index.js';

/** helpers the shop suites share (not a test file itself) */

export const SUBJECTS = '/api/rbac/subjects';
export const shopPath = (subjectId: string, rest = '') => `${SUBJECTS}/${subjectId}/ecommerce-module${rest}`;

/**
 * The app with accounts, notification, file storage, billing and ecommerce on a real database; files
 * go to a folder of their own. `env` switches providers on (see README, 'Selling').
 */
export async function bootShop(db: TestDatabase, opts: { env?: Record<string, string> } = {}) {
  const files = mkdtempSync(join(ROOT, '.tmp', 'shop-files-'));
  process.env.FILE_STORAGE_DIR = files;
  const env = { ADMIN_EMAILS: ADMIN_EMAIL, ...opts.env };
  const t = await bootApp(db, {
    plugins: [notification, createBillingPlugin({ env }), ecommerce, fileStorage, createRbacPlugin({ limits: GENEROUS })],
    env,
  });
  const anon = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => t.call(method, path, body, { auth: false, headers });
  const as = (token: string) => (method: string, path: string, body?: unknown, headers?: Record<string, string>) => t.call(method, path, body, { token, headers });
  /**
   * a member signed in with an email login; `verified` marks the address proven (as the code mailed to it would), so
   * that order mails reach it: they go to verified addresses only
   */
  async function register(login: string, password = 'password123', opts: { verified?: boolean } = {}) {
    const r = await anon('POST', ROUTES.register, { data: { login, password } });
    if (r.status !== 201) throw new Error(`registration failed: ${JSON.stringify(r.body)}`);
    const me = await as(r.body.data.jwt)('GET', ROUTES.me);
    const jwt = r.body.data.jwt as string;
    const identityId = me.body.data.identities[0].id as string;
    if (opts.verified) {
      const v = await t.call('PATCH', `/api/rbac/identities/${identityId}`, { data: { emailVerifiedAt: new Date().toISOString() } });
      if (v.status !== 200) throw new Error(`verification failed: ${JSON.stringify(v.body)}`);
    }
    return { jwt, id: me.body.data.id as string, identityId, call: as(jwt) };
  }
  /** a rows made through the API with the system key */
  async function make(path: string, data: Record<string, unknown>) {
    const r = await t.call('POST', path, { data });
    if (r.status !== 201) throw new Error(`${path}: ${JSON.stringify(r.body)}`);
    return r.body.data as Record<string, any>;
  }
  return {
    ...t,
    files,
    anon,
    as,
    register,
    make,
    async close() {
      await t.close();
      rmSync(files, { recursive: true, force: true });
    },
  };
}

export type Shop = Awaited<ReturnType<typeof bootShop>>;

/**
 * A small catalog: USD and RUB, a price key, products priced in both (or one, or none), a store that
 * sells the first product, and a feature attribute that is not a price.
 */
export async function makeCatalog(t: Shop) {
  const usd = await t.make('/api/billing/currencies', { slug: 'usd', symbol: '$', isDefault: true, title: { en: 'US dollar' } });
  const rub = await t.make('/api/billing/currencies', { slug: 'rub', symbol: '₽', title: { en: 'Ruble' } });
  const priceKey = await t.make('/api/ecommerce/attribute-keys', { slug: `price-${usd.id.slice(0, 8)}`, type: 'price', field: 'number' });
  const featureKey = await t.make('/api/ecommerce/attribute-keys', { slug: `pages-${usd.id.slice(0, 8)}`, type: 'feature', field: 'number' });
  async function product(slug: string, prices: [Record<string, any>, number][], extra: Record<string, unknown> = {}) {
    const p = await t.make('/api/ecommerce/products', { slug: `${slug}-${usd.id.slice(0, 8)}`, title: { en: slug, ru: slug }, ...extra });
    for (const [currency, amount] of prices) {
      const a = await t.make('/api/ecommerce/attributes', { number: amount });
      await t.make('/api/ecommerce/attribute-keys-to-attributes', { attributeKeyId: priceKey.id, attributeId: a.id });
      await t.make('/api/ecommerce/attributes-to-billing-module-currencies', { attributeId: a.id, billingModuleCurrencyId: currency.id });
      await t.make('/api/ecommerce/products-to-attributes', { productId: p.id, attributeId: a.id });
    }
    return p;
  }
  const book = await product('book', [[usd, 12.5], [rub, 990]]);
  const pen = await product('pen', [[usd, 0.1], [rub, 9]]);
  const poster = await product('poster', [[usd, 20]]);
  const free = await product('unpriced', []);
  // a number attribute linked to a currency but whose key is a feature: not a price
  const feature = await t.make('/api/ecommerce/attributes', { number: 1 });
  await t.make('/api/ecommerce/attribute-keys-to-attributes', { attributeKeyId: featureKey.id, attributeId: feature.id });
  await t.make('/api/ecommerce/attributes-to-billing-module-currencies', { attributeId: feature.id, billingModuleCurrencyId: usd.id });
  await t.make('/api/ecommerce/products-to-attributes', { productId: free.id, attributeId: feature.id });
  const store = await t.make('/api/ecommerce/stores', { slug: `store-${usd.id.slice(0, 8)}` });
  await t.make('/api/ecommerce/stores-to-products', { storeId: store.id, productId: book.id, sku: `BOOK-${usd.id.slice(0, 8)}` });
  return { usd, rub, book, pen, poster, free, store };
}

export type Catalog = Awaited<ReturnType<typeof makeCatalog>>;

export const amounts = (prices: { currency: { slug: string }; amount: number }[]) => Object.fromEntries(prices.map((p) => [p.currency.slug, p.amount]));

/**
 * A suite's shop with the small catalog: booted before its tests on the dialect's database, handed over through
 * `use`, closed after them.
 * @example let t: Shop; let c: Catalog; shopForSuite(d, (shop, catalog) => ((t = shop), (c = catalog)));
 */
export function shopForSuite(db: { make: () => Promise<TestDatabase> }, use: (shop: Shop, catalog: Catalog) => void) {
  let shop: Shop | undefined;
  beforeAll(async () => {
    shop = await bootShop(await db.make());
    use(shop, await makeCatalog(shop));
  });
  afterAll(async () => shop?.close());
}

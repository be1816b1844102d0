import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { DIALECTS } from '../helpers/databases.js';
import { seed } from '../../runtime/seed.js';
import { createRbacPlugin, rbac } from '../../plugins/rbac/server/index.js';

const id = (n: number) => `9d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe.each(DIALECTS)('rbac seed on $name', ({ make }) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp(await make(), { plugins: [createRbacPlugin()] });
  });
  afterAll(() => app?.close());

  it('inserts every row through validation', async () => {
    const rows = Object.values(rbac.seed!).reduce((n, list) => n + list.length, 0);
    expect(await seed(app.repo, [rbac.seed!])).toBe(rows);
  });

  it('has the widgets the host pages point at, readable by visitors, in en and ru', async () => {
    const expected: [number, string][] = [
      [1, 'select-method'], [2, 'registration'], [3, 'forgot-password'], [4, 'reset-password'],
      [5, 'logout'], [6, 'identity-settings'], [7, 'account-menu'], [8, 'login'],
    ];
    for (const [n, variant] of expected) {
      const r = await app.call('GET', `/api/rbac/widgets/${id(n)}`, undefined, { auth: false });
      expect(r.status, variant).toBe(200);
      expect(r.body.data.variant).toBe(variant);
      expect(Object.keys(r.body.data.title).sort()).toEqual(['en', 'ru']);
    }
    const select = await app.call('GET', `/api/rbac/widgets/${id(1)}`, undefined, { auth: false });
    expect(select.body.data.title).toEqual({ en: 'Sign in', ru: 'Вход' });
    expect(Object.keys(select.body.data.subtitle).sort()).toEqual(['en', 'ru']);
    expect(Object.keys(select.body.data.description).sort()).toEqual(['en', 'ru']);
  });
});

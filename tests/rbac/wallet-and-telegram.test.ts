import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DIALECTS } from '../helpers/databases.js';
import { bootAccounts, ROUTES, type AccountsApp } from '../helpers/accounts.js';
import { issueNonce } from '../../plugins/rbac/server/wallet.js';
import { BOT_TOKEN, siwe, telegramPayload } from './support.js';



for (const d of DIALECTS) {
  describe(`wallet and Telegram sign-in on ${d.name}`, () => {
    let t: AccountsApp;
    beforeAll(async () => {
      t = (await bootAccounts(await d.make(), { env: { TELEGRAM_BOT_TOKEN: BOT_TOKEN } })) as AccountsApp;
    });
    afterAll(async () => t?.close());

    // the nonce route makes no anonymous subject (init does)
    const nonce = async () => (await t.anon('GET', `${ROUTES.init.replace(/init$/, '')}ethereum-virtual-machine/nonce`)).body.data.nonce as string;
    const signIn = async (account: ReturnType<typeof privateKeyToAccount>, message: string, extra: Record<string, unknown> = {}, token?: string) => {
      const signature = await account.signMessage({ message });
      return t.call('POST', ROUTES.wallet, { data: { message, signature, address: account.address.toLowerCase(), ...extra } }, token ? { token } : { auth: false });
    };

    it('init gives an anonymous session (jwt and refresh) and a nonce; registration upgrades it', async () => {
      const r = await t.anon('GET', ROUTES.init);
      // EIP-4361 nonces are alphanumeric, at least 8 characters
      expect(r.body.data).toEqual({ jwt: expect.stringMatching(/^ey/), refresh: expect.stringMatching(/^[0-9a-f-]{36}\.[\w-]{43}$/), nonce: expect.stringMatching(/^[a-zA-Z0-9]{8,}$/) });
      const me = (await t.as(r.body.data.jwt)('GET', ROUTES.me)).body.data;
      expect(me).toMatchObject({ isAnonymous: true, isAdmin: false, identities: [], roles: [] });
      // the refresh token works like any other
      const refreshed = await t.anon('POST', ROUTES.refresh, { data: { refresh: r.body.data.refresh } });
      expect(refreshed.status).toBe(200);
      // registering with the anonymous session makes that subject the account, and ends the anonymous session
      const reg = await t.as(refreshed.body.data.jwt)('POST', ROUTES.register, { data: { login: 'was-anonymous@example.com', password: 'password123' } });
      expect(reg.status).toBe(201);
      const after = (await t.as(reg.body.data.jwt)('GET', ROUTES.me)).body.data;
      expect(after).toMatchObject({ id: me.id, isAnonymous: false });
      expect(after.roles.map((x: { slug: string }) => x.slug)).toEqual(['member']);
      expect((await t.as(refreshed.body.data.jwt)('GET', ROUTES.me)).body.data).toBeNull();
    });

    it('me answers null for a visitor, not 401', async () => {
      const r = await t.anon('GET', ROUTES.me);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ data: null });
    });

    it('the first sign-in makes the subject and an identity with the checksummed address; the next finds it', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey());
      const first = await signIn(wallet, siwe(wallet.address, await nonce()));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const me = (await t.as(first.body.data.jwt)('GET', ROUTES.me)).body.data;
      expect(me.identities).toEqual([expect.objectContaining({ provider: 'ethereum_virtual_machine', account: wallet.address })]);
      expect(me.roles.map((r: { slug: string }) => r.slug)).toEqual(['member']);
      const second = await signIn(wallet, siwe(wallet.address, await nonce(), { statement: 'Again.' }));
      expect((await t.as(second.body.data.jwt)('GET', ROUTES.me)).body.data.id).toBe(me.id);
      // a field a wallet sign-in does not take is a 400 naming it, as on every route (docs/API.md), and its nonce is not spent
      const fresh = siwe(wallet.address, await nonce());
      const extra = await signIn(wallet, fresh, { roles: ['admin'], isAdmin: true });
      expect([extra.status, extra.body.cause]).toEqual([400, [{ field: 'roles', rule: 'unknown', message: 'roles is not an allowed field' }, { field: 'isAdmin', rule: 'unknown', message: 'isAdmin is not an allowed field' }]]);
      expect((await signIn(wallet, fresh)).status).toBe(200);
    });

    it('a forged signature, a reused, expired or made-up nonce, a short message: refused, nothing made', async () => {
      const subjects = async () => (await t.call('GET', '/api/rbac/subjects/count')).body.data;
      const before = await subjects();
      const victim = privateKeyToAccount(generatePrivateKey());
      const attacker = privateKeyToAccount(generatePrivateKey());
      const message = siwe(victim.address, await nonce());
      const forged = await t.anon('POST', ROUTES.wallet, { data: { message, signature: await attacker.signMessage({ message }), address: victim.address } });
      expect(forged).toMatchObject({ status: 401, body: { message: 'Not authorized: the signature does not match the address' } });

      const used = siwe(victim.address, await nonce());
      expect((await signIn(victim, used)).status).toBe(200);
      expect((await signIn(victim, used)).body).toMatchObject({ status: 401, message: 'Not authorized: the nonce was already used' });

      const expired = issueNonce(t.config.rbacJwtSecret, Date.now() - 11 * 60 * 1000);
      expect((await signIn(victim, siwe(victim.address, expired, { issuedAt: new Date(Date.now() - 11 * 60 * 1000) }))).body.message).toBe('Not authorized: the nonce has expired');
      const madeUp = issueNonce('not-the-server-secret');
      expect((await signIn(victim, siwe(victim.address, madeUp))).body.message).toBe('Not authorized: unknown nonce');
      expect((await signIn(victim, 'no nonce at all here')).status).toBe(400);
      expect((await signIn(victim, 'short')).status).toBe(400);
      const noAddress = await t.anon('POST', ROUTES.wallet, { data: { message: siwe(victim.address, await nonce()), signature: '0x00' } });
      expect(noAddress).toMatchObject({ status: 404, body: { message: 'No account found' } });
      expect(await subjects()).toBe(before + 1); // only the victim's own sign-in
    });

    it('a signed-in subject links a new wallet to itself, with its current password; nobody else can link it', async () => {
      const s = await t.registerVerified('sam@example.com');
      const wallet = privateKeyToAccount(generatePrivateKey());
      // a session alone does not add a login (finding 4): nothing is linked, no subject is made
      const bare = await signIn(wallet, siwe(wallet.address, await nonce(), { statement: 'Link.' }), {}, s.jwt);
      expect(bare.status).toBe(400);
      expect(bare.body.cause[0]).toMatchObject({ field: 'currentPassword', rule: 'required' });
      expect((await t.as(s.jwt)('GET', ROUTES.me)).body.data.identities).toHaveLength(1);
      const linked = await signIn(wallet, siwe(wallet.address, await nonce(), { statement: 'Link.' }), { currentPassword: 'password123' }, s.jwt);
      expect(linked.status).toBe(200);
      const me = (await t.as(linked.body.data.jwt)('GET', ROUTES.me)).body.data;
      expect(me.id).toBe(s.id);
      expect(me.identities.map((i: { provider: string }) => i.provider).sort()).toEqual(['email_and_password', 'ethereum_virtual_machine']);
      // another signed-in subject signing with the same wallet gets the wallet's own account, not a link
      const other = await t.register('tina@example.com');
      const again = await signIn(wallet, siwe(wallet.address, await nonce()), {}, other.jwt);
      expect((await t.as(again.body.data.jwt)('GET', ROUTES.me)).body.data.id).toBe(s.id);
      expect((await t.as(other.jwt)('GET', ROUTES.me)).body.data.identities).toHaveLength(1);
    });

    it('POST /rbac/subjects/{id}/identities with {message, signature, address} links a wallet, with the sign-in rules and the current password', async () => {
      const s = await t.registerVerified('wally@example.com');
      const wallet = privateKeyToAccount(generatePrivateKey());
      const link = async (extra: Record<string, unknown>, message?: string) => {
        const m = message ?? siwe(wallet.address, await nonce(), { statement: 'Link.' });
        return t.as(s.jwt)('POST', `/api/rbac/subjects/${s.id}/identities`, { data: { message: m, signature: await wallet.signMessage({ message: m }), address: wallet.address, ...extra } });
      };
      const bare = await link({});
      expect(bare.status).toBe(400);
      expect(bare.body.cause[0]).toMatchObject({ field: 'currentPassword', rule: 'required' });
      // a message that is not this site's EIP-4361 message is refused before anything else
      expect((await link({ currentPassword: 'password123' }, `Sign in ${await nonce()}`)).status).toBe(400);
      const linked = await link({ currentPassword: 'password123' });
      expect(linked.status).toBe(201);
      expect(linked.body.data).toMatchObject({ provider: 'ethereum_virtual_machine', account: wallet.address });
      const me = (await t.as(s.jwt)('GET', ROUTES.me)).body.data;
      expect(me.identities.map((i: { provider: string }) => i.provider).sort()).toEqual(['email_and_password', 'ethereum_virtual_machine']);
      expect((await link({ currentPassword: 'password123' })).status).toBe(409);
      // another subject cannot take it through its own route
      const other = await t.register('wilma@example.com');
      const m = siwe(wallet.address, await nonce());
      const stolen = await t.as(other.jwt)('POST', `/api/rbac/subjects/${other.id}/identities`, { data: { message: m, signature: await wallet.signMessage({ message: m }), address: wallet.address, currentPassword: 'password123' } });
      expect(stolen.status).toBe(409);
      // nor link someone else's wallet with a forged signature
      const attacker = privateKeyToAccount(generatePrivateKey());
      const forgedMessage = siwe(wallet.address, await nonce());
      const forged = await t.as(other.jwt)('POST', `/api/rbac/subjects/${other.id}/identities`, { data: { message: forgedMessage, signature: await attacker.signMessage({ message: forgedMessage }), address: wallet.address, currentPassword: 'password123' } });
      expect(forged.status).toBe(401);
    });

    it('finding 4: linking a Telegram account to a signed-in subject needs its current password, sent beside the signed fields', async () => {
      const s = await t.registerVerified('tom@example.com', 'tom-password');
      const now = Math.floor(Date.now() / 1000);
      const payload = telegramPayload({ id: 5151, first_name: 'Tom', auth_date: now });
      const bare = await t.as(s.jwt)('POST', ROUTES.telegram, { data: payload });
      expect(bare.status).toBe(400);
      expect(bare.body.cause[0]).toMatchObject({ field: 'currentPassword', rule: 'required' });
      expect((await t.as(s.jwt)('POST', ROUTES.telegram, { data: { ...payload, currentPassword: 'wrong-password' } })).body.cause[0]).toMatchObject({ field: 'currentPassword', rule: 'match' });
      expect((await t.as(s.jwt)('GET', ROUTES.me)).body.data.identities).toHaveLength(1);
      const linked = await t.as(s.jwt)('POST', ROUTES.telegram, { data: { ...payload, currentPassword: 'tom-password' } });
      expect(linked.status, JSON.stringify(linked.body)).toBe(200);
      const me = (await t.as(linked.body.data.jwt)('GET', ROUTES.me)).body.data;
      expect(me.id).toBe(s.id);
      expect(me.identities.map((i: { provider: string }) => i.provider).sort()).toEqual(['email_and_password', 'telegram']);
    });

    it('Telegram: a valid widget payload signs in; a tampered hash or a stale auth_date does not', async () => {
      const now = Math.floor(Date.now() / 1000);
      const ok = await t.anon('POST', ROUTES.telegram, { data: telegramPayload({ id: 4242, first_name: 'Uma', username: 'uma', auth_date: now }) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      const me = (await t.as(ok.body.data.jwt)('GET', ROUTES.me)).body.data;
      expect(me.identities).toEqual([expect.objectContaining({ provider: 'telegram', account: '4242' })]);

      const tampered = { ...telegramPayload({ id: 4242, first_name: 'Uma', auth_date: now }), id: 4243 };
      expect((await t.anon('POST', ROUTES.telegram, { data: tampered })).body).toMatchObject({ status: 401, message: 'Not authorized: the Telegram signature does not match' });
      const otherBot = telegramPayload({ id: 4242, auth_date: now }, '999:another-bot');
      expect((await t.anon('POST', ROUTES.telegram, { data: otherBot })).status).toBe(401);
      const stale = telegramPayload({ id: 4242, first_name: 'Uma', auth_date: now - 2 * 24 * 60 * 60 });
      expect((await t.anon('POST', ROUTES.telegram, { data: stale })).body).toMatchObject({ status: 401, message: 'Not authorized: the Telegram login is too old' });
    });
  });
}

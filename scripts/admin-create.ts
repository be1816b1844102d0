import { parseArgs } from 'node:util';
import { ROOT } from '../engine/codegen.js';
import { loadConfig } from '../runtime/config.js';
import { prepare } from '../runtime/server.js';
import { plugins } from '../plugins/index.js';
import { Accounts } from '../plugins/rbac/server/accounts.js';
import { hashPassword, PASSWORD_MIN } from '../plugins/rbac/server/passwords.js';

/** npm run admin:create -- --email E --password P: the first admin, or a new password and the admin role for an existing one */
const USAGE = 'Usage: npm run admin:create -- --email admin@example.com --password <at least 8 characters>';
let values: { email?: string; password?: string };
try {
  ({ values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } }));
} catch (e) {
  // a mistyped option (--emial) is said in a line, not as Node's stack
  console.error(`${(e as Error).message.split('\n')[0]}\n${USAGE}`);
  process.exit(1);
}
const email = values.email?.trim().toLowerCase();
if (!email) {
  console.error(USAGE);
  process.exit(1);
}
if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
  console.error(`--email must be an email address such as admin@example.com, got '${values.email}'\n${USAGE}`);
  process.exit(1);
}
if (!values.password || values.password.length < PASSWORD_MIN) {
  console.error(`--password must have at least ${PASSWORD_MIN} characters`);
  process.exit(1);
}
// as the first start would: an empty database is seeded first (created before any start, the admin made the
// database look used, and the start never seeded it)
const p = await prepare({ config: loadConfig(), root: ROOT, plugins });
if (p.seeded) console.log(`Seeded ${p.seeded} demo rows into the empty database`);
try {
  const accounts = new Accounts(p.ctx);
  const secret = await hashPassword(values.password);
  const identity = p.model.byId['rbac/identity'];
  const made = await p.database.transaction(async (tx) => {
    const existing = await accounts.identityBy('email_and_password', email, tx);
    const subjectId = existing && (await accounts.subjectIdOfIdentity(existing.id as string, tx));
    // the operator names the address on the server: it counts as verified (ADMIN_EMAILS needs that)
    const verified = { emailVerifiedAt: new Date().toISOString() };
    if (!existing || !subjectId) {
      const created = await accounts.register({ provider: 'email_and_password', account: email, email, ...secret, ...verified }, tx);
      await accounts.assignRole(created.subjectId, 'admin', tx);
      return { subjectId: created.subjectId, created: true, ended: 0, removed: [] as Record<string, unknown>[] };
    }
    // an address registered but never proven was anyone's claim (F01): naming it here is its first proof, so the
    // account is handed over bare, as a reset would: its other logins removed and every session ended. A proven
    // account keeps its logins; its sessions end, as after any new password
    const claimed = existing.emailVerifiedAt == null
      ? await accounts.claimAddress(tx, subjectId, existing.id as string)
      : { ended: (await accounts.revokeAll(subjectId, 'password-change', tx)).length, removed: [] as Record<string, unknown>[] };
    await p.repo.update(identity, existing.id as string, { ...secret, ...verified, code: null, codeExpiresAt: null }, tx);
    await accounts.assignRole(subjectId, 'admin', tx);
    return { subjectId, created: false, ...claimed };
  });
  const removed = made.removed.map((r) => `${r.provider} ${r.email ?? r.account}`);
  console.log(
    `${made.created ? 'Created' : 'Updated'} admin ${email} (subject ${made.subjectId})` +
      (made.created ? '' : `: ${made.ended} session${made.ended === 1 ? '' : 's'} ended`) +
      (removed.length ? `; the address was never proven, so its account's other sign-in methods were removed: ${removed.join(', ')}` : ''),
  );
} finally {
  await p.database.close();
}
process.exit(0);

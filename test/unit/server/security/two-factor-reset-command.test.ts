// The operator's way back (`npm run reset-two-factor`) on a SQLite data dir: two-step
// verification off for the named account only; usage errors exit 2.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { AccountStore } from '../../../../src-server/accounts/account-store';
import { MemoryLoginThrottle } from '../../../../src-server/auth/rate-limit';
import { runTwoFactorReset } from '../../../../src-server/cli/two-factor-reset-command';
import { SecretBox } from '../../../../src-server/crypto/secret-box';
import { totpCode } from '../../../../src-server/security/totp';
import { TwoFactorService } from '../../../../src-server/security/two-factor-service';
import { openStore } from '../../../../src-server/store/open-store';

const server = { host: 'imap.tern.test', port: 993, security: 'tls' as const };
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tern-reset-2fa-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

test('turns two-step verification off for the named account only; unknown accounts and missing flags exit 2', async () => {
  const store = await openStore({ dataDir, databaseFile: 'tern.sqlite' });
  const secrets = SecretBox.load({ dataDir });
  const accounts = new AccountStore(store, secrets);
  const twoFactor = new TwoFactorService({ store, secrets, accounts, throttle: new MemoryLoginThrottle() });
  const ids = [];
  for (const email of ['alice@tern.test', 'bob@kite.test']) {
    const { id } = await accounts.save({ email, name: email, imap: server, smtp: server, password: 'pw' });
    const { secret } = await twoFactor.enrol(id);
    await twoFactor.confirm(id, totpCode({ secret, atMs: Date.now() }), '198.51.100.1');
    ids.push(id);
  }
  await store.close();

  const out: string[] = [];
  const err: string[] = [];
  const io = { env: { TERN_DATA_DIR: dataDir }, out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
  expect(await runTwoFactorReset({ ...io, argv: ['--email', ' Alice@Tern.test '] })).toBe(0);
  expect(out).toEqual(['alice@tern.test: two-step verification is off; the next sign-in needs only the mailbox password.']);
  expect(await runTwoFactorReset({ ...io, argv: ['--email', 'nobody@tern.test'] })).toBe(2);
  expect(await runTwoFactorReset({ ...io, argv: [] })).toBe(2);
  expect(err).toHaveLength(2);

  const after = await openStore({ dataDir, databaseFile: 'tern.sqlite' });
  const check = new TwoFactorService({ store: after, secrets, accounts: new AccountStore(after, secrets), throttle: new MemoryLoginThrottle() });
  expect(await check.status(ids[0]!)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
  expect(await check.status(ids[1]!)).toEqual({ enabled: true, recoveryCodesLeft: 10 });
  await after.close();
});

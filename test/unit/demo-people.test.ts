import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { loginResponseSchema } from '../../shared/api/account';
import { loadConfig } from '../../src-server/config';
import { closeContext, createContext } from '../../src-server/context';
import { LoginService } from '../../src-server/auth/login-service';
import { MemoryLoginThrottle } from '../../src-server/auth/rate-limit';
import { DEMO_ACCOUNTS } from '../harness/demo-accounts';
import { registerDemoPeople } from '../harness/demo-people';

// Issue point 24: the demo's people sent as "Alice" (the gateway's guess from the address).
const dirs: string[] = [];
afterEach(async () => Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

test('a login to the demo gateway names the account with the person’s full name', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tern-demo-people-'));
  dirs.push(dataDir);
  const server = { host: '127.0.0.1', port: 1143, security: 'none' as const };
  await registerDemoPeople({ dataDir, accounts: DEMO_ACCOUNTS, imap: server, smtp: { ...server, port: 2525 }, env: {} });

  // The gateway as it starts afterwards: the same store and key.
  const ctx = await createContext(loadConfig({ TERN_DATA_DIR: dataDir }));
  try {
    const login = new LoginService({
      accounts: ctx.accounts,
      sessions: ctx.sessions,
      throttle: new MemoryLoginThrottle(),
      discover: async () => ({ imap: server, smtp: { ...server, port: 2525 }, provider: 'tern.test', source: 'config' }),
      checkImap: async () => ({ folderSeparator: '/' }),
    });
    const alice = DEMO_ACCOUNTS[0]!;
    const response = loginResponseSchema.parse(await login.login({ email: alice.email, password: alice.password, ip: '127.0.0.1', baseUrl: 'http://127.0.0.1:8080/api' }));
    expect(response.name).toBe('Alice Tern');
    // The stored password is the demo's, sealed under the gateway's key.
    expect(await ctx.accounts.password(Number(response.mailId))).toBe(alice.password);
  } finally {
    await closeContext(ctx);
  }
});

// Scratch (not a test): the real worker bundle in Chromium against a real gateway + harness.
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src-server/config';
import { createContext } from '../../src-server/context';
import { createApp } from '../../src-server/http/app';
import { startMailServers } from '../harness/mail-servers';
import { seedMailbox } from '../harness/seed/seed-mailbox';
import { launchChromium } from '../e2e/chromium';

const ALICE = { email: 'alice@tern.test', password: 'Alice-pass-1!', name: 'Alice Tern' };
const root = await mkdtemp(path.join(os.tmpdir(), 'tern-smoke-'));
await chmod(root, 0o711);
const servers = await startMailServers({ dataDir: path.join(root, 'mail'), users: [ALICE], fresh: true });
seedMailbox({ maildir: servers.maildirOf(ALICE.email), owner: ALICE, count: 2000 });
await servers.fixOwnership(ALICE.email);
const harness = (port: number) => ({ host: servers.host, port, security: 'none' });
const config = loadConfig({
  TERN_HOST: '127.0.0.1',
  TERN_DATA_DIR: path.join(root, 'gateway'),
  TERN_PUBLIC_DIR: path.join(process.cwd(), 'public'),
  TERN_MAIL_DOMAINS: JSON.stringify({ 'tern.test': { imap: harness(servers.ports.imap), smtp: harness(servers.ports.smtp) } }),
});
const ctx = createContext(config);
const app = await createApp(ctx);
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
  await page.goto(base);
  await page.getByLabel('Email address').fill(ALICE.email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/Password/).fill(ALICE.password);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForFunction(() => document.querySelectorAll('[role="option"], [role="row"], li').length > 10, null, { timeout: 20000 });
  console.log('rows visible after', Date.now() - t0, 'ms');
  await new Promise((r) => setTimeout(r, 4000));
  await page.screenshot({ path: path.join(process.cwd(), 'test/.scratch-sync/inbox.png') });
  const text = await page.evaluate(() => document.body.innerText.slice(0, 1500));
  console.log(text);
} finally {
  await browser.close();
  await app.close();
  ctx.db.close();
  await servers.stop();
}

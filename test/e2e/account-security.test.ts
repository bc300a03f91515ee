/**
 * Account security end to end on the demo (issue 19): Bob sets an alternate email (Alice's
 * mailbox: the gateway's code arrives there over the harness's Postfix and is read over IMAP),
 * turns on two-step verification from Settings → Security (a wrong first code refused in place,
 * the recovery codes shown once), then signs in again in fresh browsers through each login
 * step: AUTHENTICATOR (a wrong code refused beside the field), RECOVERY_CODE ("9 left"), and
 * ALTERNATE_EMAIL (a mailed code signs in and turns two-step verification off). Settings →
 * Sessions lists his sessions and signs one out: that tab says its session ended. A sign-in
 * from an unusual country (the run's country database, X-Forwarded-For from the browser) asks
 * for a code mailed to the alternate email (MULTI_COUNTRY_LOGIN_ERROR). Photographed
 * at 1366×768 and 390×844, light and dark. afterAll leaves Bob as found: two-step verification
 * off (through the alternate email if a test stopped half-way) and no alternate email.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import type { ImapFlow } from 'imapflow';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { loginResponseSchema } from '../../shared/api/account';
import { securityStatusSchema } from '../../shared/api/security';
import { totpCode } from '../../src-server/security/totp';
import { screenshot } from './chromium';
import { eventually, newDemoContext, startLoggedIn, watch, withImapOf, type Watched } from './demo-session';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;

let browser: Browser;
let tab: Watched;
let page: Page;
const others: BrowserContext[] = [];
let secret = '';
let recoveryCodes: string[] = [];

beforeAll(async () => {
  ({ browser, tab, page } = await startLoggedIn(baseUrl, bob, { viewport: { width: 1366, height: 768 } }));
});

/** The newest code the gateway mailed to Alice's mailbox about Bob; the mail is deleted (other files read Alice's inbox). */
async function mailedCode(): Promise<string> {
  return withImapOf(demo.mail.host, demo.mail.imap, alice, async (client: ImapFlow) => {
    await client.mailboxOpen('INBOX');
    const uids = await eventually(async () => {
      const found = (await client.search({ from: 'security@tern.test', body: bob.email }, { uid: true })) || [];
      return found.length > 0 ? found : undefined;
    }, 15_000, 'the code mail in Alice’s inbox');
    const message = await client.fetchOne(String(uids.at(-1)), { envelope: true }, { uid: true });
    await client.messageDelete(uids.map(String).join(','), { uid: true });
    return /Tern Mail code: (\d{6})/.exec(message ? (message.envelope?.subject ?? '') : '')![1]!;
  });
}

async function api(path: string, token: string, body?: unknown) {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
}

const gatewayLogin = async (answer: Record<string, unknown> = {}) =>
  (await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: bob.email, password: bob.password, ...answer }) })).json() as Promise<Record<string, unknown>>;

/** Bob as found: two-step verification off (reset through the alternate email when still on), no alternate email. */
afterAll(async () => {
  for (const context of others) await context.close().catch(() => undefined);
  for (const proxy of proxies) proxy.close();
  await browser?.close();
  let reply = await gatewayLogin();
  if (reply.challenge === 'AUTHENTICATOR') {
    await gatewayLogin({ sendEmailCode: true });
    reply = await gatewayLogin({ emailCode: await mailedCode() });
  }
  const { token } = loginResponseSchema.parse(reply);
  expect((await api('/security/alternate-email/remove', token, {})).status).toBe(204);
  const status = securityStatusSchema.parse((await api('/security', token)).body);
  expect(status).toMatchObject({ twoFactor: { enabled: false }, alternateEmail: null });
  await api('/logout', token, {});
});

async function showScheme(target: Page, scheme: 'light' | 'dark') {
  await target.emulateMedia({ colorScheme: scheme });
  await target.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, scheme);
  await target.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

/** The screen at 1366×768 and 390×844, light and dark; back to 1366 and light after. */
async function photograph(target: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await showScheme(target, scheme);
    await target.setViewportSize({ width: 1366, height: 768 });
    await screenshot(target, `${name}-1366-${scheme}`);
    await target.setViewportSize({ width: 390, height: 844 });
    await screenshot(target, `${name}-390-${scheme}`);
  }
  await target.setViewportSize({ width: 1366, height: 768 });
  await showScheme(target, 'light');
}

/** A fresh browser context at the login screen, Bob's password given: the gateway's next step is on screen. */
async function signInAgain(from?: string): Promise<Watched> {
  // From `from`: through a loopback proxy that says so in X-Forwarded-For, as a reverse proxy the gateway trusts would
  // (a route or extra headers reach the page's requests only, not the engine's worker).
  const context = from
    ? await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: 'light', proxy: { server: await forwardingProxy(from), bypass: '<-loopback>' } })
    : await newDemoContext(browser, { viewport: { width: 1366, height: 768 } });
  others.push(context);
  const fresh = watch(await context.newPage());
  await fresh.page.goto(baseUrl);
  await fresh.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await fresh.mail.login(bob.email, bob.password);
  return fresh;
}

const proxies: Server[] = [];

/** A plain HTTP forward proxy on loopback that adds `X-Forwarded-For: <client>` to every request; its address. */
async function forwardingProxy(client: string): Promise<string> {
  const server = createServer((request, response) => {
    const target = new URL(request.url ?? '/');
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers: { ...request.headers, 'x-forwarded-for': client } },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  proxies.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const codeField = (target: Page, name: string) => target.getByRole('textbox', { name, exact: true });

describe('account security', () => {
  test('Settings → Security: the alternate email confirmed by a mailed code; two-step verification set up with the first code; recovery codes shown once', async () => {
    await page.goto(`${baseUrl}/settings/security`);
    await page.getByRole('heading', { name: 'Security', level: 2 }).waitFor();
    await page.getByText('can only be changed', { exact: false }).or(page.getByText('change it there', { exact: false })).first().waitFor();
    await page.getByRole('textbox', { name: 'Alternate email address', exact: true }).fill(alice.email);
    await page.getByRole('button', { name: 'Send a code', exact: true }).click();
    await page.getByText(`${alice.email}, waiting for the code we sent there.`).waitFor();
    await codeField(page, 'Code from the email').fill(await mailedCode());
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByText(`${alice.email}, confirmed.`).waitFor();

    await page.getByRole('button', { name: 'Set up two-step verification', exact: true }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = ((await page.locator('.security-secret code').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await photograph(page, 'security-enrol');
    const right = totpCode({ secret, atMs: Date.now() });
    await codeField(page, 'Code from the app').fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'This code is not correct.' }).waitFor();
    expect(await codeField(page, 'Code from the app').getAttribute('aria-invalid')).toBe('true');
    await codeField(page, 'Code from the app').fill(right);
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    recoveryCodes = await page.locator('.security-code-list code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as .txt', exact: true }).click()]);
    expect(download.suggestedFilename()).toBe('tern-mail-recovery-codes.txt');
    // Streamed from the browser (its own path is not ours when connected to the run's Chromium).
    const file = await text(await download.createReadStream());
    for (const code of recoveryCodes) expect(file).toContain(code);
    await photograph(page, 'security-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them', exact: true }).click();
    await page.getByText('On. Signing in also needs a code from your authenticator app.').waitFor();
    await page.getByText('10 recovery codes left.').waitFor();
    expect(tab.errors).toEqual([]);
  });

  test('signing in again asks AUTHENTICATOR after the password; a wrong code is refused beside the field; a recovery code signs in and says how many are left', async () => {
    const fresh = await signInAgain();
    await fresh.page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    const field = codeField(fresh.page, 'Verification code');
    await field.fill('000000' === totpCode({ secret, atMs: Date.now() }) ? '111111' : '000000');
    await fresh.page.getByRole('button', { name: 'Verify', exact: true }).click();
    await fresh.page.getByText('This code is not correct. Enter the code your authenticator app shows now.').waitFor();
    expect(await field.getAttribute('name')).toBe('auth_code');
    await fresh.page.getByRole('button', { name: 'Lost your authenticator? Get a code by email', exact: true }).waitFor();
    await photograph(fresh.page, 'login-authenticator');

    await fresh.page.getByRole('button', { name: 'Use a recovery code instead', exact: true }).click();
    const recovery = codeField(fresh.page, 'Recovery code');
    expect(await recovery.getAttribute('name')).toBe('recovery_code');
    await recovery.fill(recoveryCodes[0]!);
    await photograph(fresh.page, 'login-recovery-code');
    await fresh.page.getByRole('button', { name: 'Verify', exact: true }).click();
    await fresh.mail.waitForRows();
    await fresh.page.getByText('9 recovery codes left.').waitFor();
    expect(fresh.errors).toEqual([]);
  });

  test('Settings → Sessions lists Bob’s sessions with this device marked; signing one out ends that tab’s session', async () => {
    await page.goto(`${baseUrl}/settings/sessions`);
    await page.getByRole('heading', { name: 'Sessions', level: 2 }).waitFor();
    const mine = page.locator('.security-session[data-current="true"]');
    await mine.getByText('This device').waitFor();
    await mine.getByText(/Chrome on Linux/).waitFor();
    await photograph(page, 'security-sessions');
    // The recovery-code tab is the most recently active other session: first after this one.
    const other = page.locator('.security-session:not([data-current])').first();
    await other.getByRole('button', { name: /^Sign out/ }).click();
    const signedOutTab = others[0]!.pages()[0]!;
    await signedOutTab.getByRole('status').filter({ hasText: `Your session for ${bob.email} ended. Sign in again.` }).waitFor({ timeout: 15_000 });
  });

  test('a lost authenticator: ALTERNATE_EMAIL mails a code to the alternate address; it signs in and turns two-step verification off', async () => {
    const fresh = await signInAgain();
    await fresh.page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await fresh.page.getByRole('button', { name: 'Lost your authenticator? Get a code by email', exact: true }).click();
    await fresh.page.getByRole('heading', { name: 'Confirm your alternate email' }).waitFor();
    await fresh.page.getByText('We sent a 6-digit code to a•••@tern.test.', { exact: false }).waitFor();
    await photograph(fresh.page, 'login-alternate-email');
    await codeField(fresh.page, 'Code from the email').fill(await mailedCode());
    await fresh.page.getByRole('button', { name: 'Verify', exact: true }).click();
    await fresh.mail.waitForRows();
    await fresh.page.getByText(`Two-step verification was turned off for ${bob.email}.`, { exact: false }).waitFor();
    const status = await eventually(async () => {
      await page.goto(`${baseUrl}/settings/security`);
      return page.getByText('Off. Signing in needs only your mailbox password.').isVisible();
    }, 10_000, 'the Security page saying two-step verification is off');
    expect(status).toBe(true);
    expect(fresh.errors).toEqual([]);
  });

  test('a sign-in from a country none of Bob’s recent sign-ins came from asks for a code mailed to the alternate email (MULTI_COUNTRY_LOGIN_ERROR)', async () => {
    // The run's country database (global-setup.ts) puts 81.2.69.0/24 in GB and 2.125.0.0/16 in DE; the browser claims an address there.
    // His usual country: a sign-in from Britain (straight to the gateway, as from another of his browsers there).
    const home = await fetch(`${baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '81.2.69.160' },
      body: JSON.stringify({ email: bob.email, password: bob.password }),
    });
    await api('/logout', loginResponseSchema.parse(await home.json()).token, {});
    const abroad = await signInAgain('2.125.7.8');
    await abroad.page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    await abroad.page.getByText('This sign-in comes from a country this account does not usually sign in from.').waitFor();
    await abroad.page.getByText('We sent a 6-digit code to a•••@tern.test.', { exact: false }).waitFor();
    await photograph(abroad.page, 'login-unusual-country');
    await codeField(abroad.page, 'Code from the email').fill(await mailedCode());
    await abroad.page.getByRole('button', { name: 'Verify', exact: true }).click();
    await abroad.mail.waitForRows();
    expect(abroad.errors).toEqual([]);
  });
});

// Rules that run on the mail server, against the harness's real Dovecot Pigeonhole: the
// ManageSieve client on the wire, then PUT /api/rules and mail delivered SMTP → Postfix → LMTP
// → Sieve: filed, starred, labelled, blocked into Junk, auto-replied once per sender, while the
// person's own earlier script keeps running. Bad input changes nothing on the server.
import { readFile } from 'node:fs/promises';
import type { ConnectionOptions } from 'node:tls';
import type { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EMPTY_RULES, type MailRules, type RuleRun, type RulesActivity, type RulesDoc } from '../../shared/mail-rules';
import { ManageSieveClient, SieveCommandError, SieveConnectionError } from '../../src-server/sieve/managesieve-client';
import { checkForwarding } from '../../src-server/sieve/forwarding-check';
import { TERN_SCRIPT_NAME } from '../../src-server/sieve/script-writer';
import { NodemailerSmtp } from '../../src-server/smtp/smtp-connector';
import { eventually } from './support/gateway-fixture';
import { ALICE, BOB, startWritesFixture, type WritesFixture } from './support/mail-writes-fixture';

let fx: WritesFixture;
let aliceImap: ImapFlow;
let bobImap: ImapFlow;

const USER_SCRIPT = 'require "imap4flags";\r\n# Alice\'s own rule, written before Tern\r\nif header :contains "subject" "userflag" { addflag "$UserRule"; }\r\n';

beforeAll(async () => {
  // One message per step of an "apply to existing mail" run, so the test sees each step.
  fx = await startWritesFixture({ name: 'sieve-rules', count: 3, overrides: { rulesApplyBatch: 1 } });
  aliceImap = await fx.imap(ALICE);
  bobImap = await fx.imap(BOB);
}, 60_000);

afterAll(async () => {
  await aliceImap?.logout().catch(() => undefined);
  await bobImap?.logout().catch(() => undefined);
  await fx?.close();
});

const sieve = () => ManageSieveClient.connect({ host: fx.servers.host, port: fx.servers.ports.sieve, security: 'none', user: ALICE.email, password: ALICE.password });

async function withSieve<T>(work: (client: ManageSieveClient) => Promise<T>): Promise<T> {
  const client = await sieve();
  try {
    return await work(client);
  } finally {
    await client.logout();
  }
}

async function send(message: { from: string; to: string; subject: string; text?: string; headers?: Record<string, string> }) {
  const transport = createTransport({ host: fx.servers.host, port: fx.servers.ports.smtp, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ text: 'hello', ...message });
  } finally {
    transport.close();
  }
}

/** The message with this subject in the folder, once delivered (flags and keywords included). */
async function arrived(client: ImapFlow, folder: string, subject: string): Promise<{ flags: Set<string> }> {
  return eventually(
    async () => {
      const lock = await client.getMailboxLock(folder);
      try {
        const uids = await client.search({ subject }, { uid: true });
        if (!Array.isArray(uids) || uids.length === 0) return undefined;
        const message = await client.fetchOne(String(uids[0]), { flags: true }, { uid: true });
        return message ? { flags: message.flags ?? new Set<string>() } : undefined;
      } finally {
        lock.release();
      }
    },
    10_000,
    `"${subject}" in ${folder}`,
  );
}

async function countSubject(client: ImapFlow, folder: string, subject: string): Promise<number> {
  const lock = await client.getMailboxLock(folder);
  try {
    const uids = await client.search({ subject }, { uid: true });
    return Array.isArray(uids) ? uids.length : 0;
  } finally {
    lock.release();
  }
}

async function getRules(session = fx.alice) {
  return fx.api<RulesDoc>(session, 'GET', '/api/rules');
}

async function putRules(rules: MailRules, baseRevision: number, session = fx.alice) {
  return fx.api<RulesDoc & { error?: string; detail?: Record<string, unknown> }>(session, 'PUT', '/api/rules', { rules, baseRevision });
}

describe('the ManageSieve client on Dovecot Pigeonhole', () => {
  test('reads capabilities, stores, lists, reads back, checks and deletes scripts (literals both ways)', async () => {
    await withSieve(async (client) => {
      expect(client.capabilities.implementation).toMatch(/Pigeonhole/);
      expect(client.capabilities.extensions.has('vacation')).toBe(true);
      const script = 'require "fileinto";\r\n# Grüße, "quotes" and a {3} brace\r\nif header :is "subject" "x" { fileinto "INBOX"; }\r\n';
      await client.haveSpace('probe', Buffer.byteLength(script));
      expect(await client.checkScript(script)).toBe('');
      await client.putScript('probe "one"', script);
      expect(await client.listScripts()).toContainEqual({ name: 'probe "one"', active: false });
      expect(await client.getScript('probe "one"')).toBe(script);
      await client.deleteScript('probe "one"');
      expect((await client.listScripts()).map((entry) => entry.name)).not.toContain('probe "one"');
    });
  });

  test('a script with an error is refused by CHECKSCRIPT with the server\'s text; an oversized one by HAVESPACE with QUOTA', async () => {
    await withSieve(async (client) => {
      const refusal = await client.checkScript('if header :is "subject" {').catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(SieveCommandError);
      expect((refusal as SieveCommandError).response.text).toMatch(/error/i);
      const quota = await client.haveSpace('huge', 100 * 1024 * 1024).catch((error: unknown) => error);
      expect(quota).toBeInstanceOf(SieveCommandError);
      expect((quota as SieveCommandError).isQuota).toBe(true);
      // The connection survives a NO.
      expect(Array.isArray(await client.listScripts())).toBe(true);
    });
  });
});

describe('STARTTLS on the real managesieved', () => {
  /** Dovecot's login lines for Alice on ManageSieve: ", TLS," on an encrypted link, "secured" on plain loopback. */
  const logins = async () => (await readFile(fx.servers.logFiles.dovecot, 'utf8')).split('\n').filter((line) => /managesieve-login: (Info: )?Login: user=<alice@tern\.test>, method=PLAIN/.test(line));
  const connect = (security: 'starttls' | 'none', tlsOptions?: ConnectionOptions) =>
    ManageSieveClient.connect({ host: fx.servers.host, port: fx.servers.ports.sieve, security, user: ALICE.email, password: ALICE.password, ...(tlsOptions ? { tlsOptions } : {}) });

  test('the client upgrades, verifies the certificate and logs in over TLS; a failed upgrade never falls back to PLAIN in clear', async () => {
    const before = (await logins()).length;
    const verified = await connect('starttls', { ca: fx.servers.tls.cert });
    try {
      expect(verified.secure).toBe(true);
      // The capabilities announced again after the handshake: STARTTLS is no longer offered.
      expect(verified.capabilities.starttls).toBe(false);
      expect(Array.isArray(await verified.listScripts())).toBe(true);
    } finally {
      await verified.logout();
    }
    // A server the operator calls plaintext ('none') that offers STARTTLS gets the password over TLS too.
    const opportunistic = await connect('none');
    expect(opportunistic.secure).toBe(true);
    await opportunistic.logout();
    await eventually(async () => ((await logins()).length === before + 2 ? true : undefined), 5_000, 'two logins in the log');
    const lines = (await logins()).slice(before);
    for (const line of lines) expect(line).toMatch(/, TLS[,:]/);

    // An untrusted certificate: refused before AUTHENTICATE, with nothing sent in clear instead.
    const untrusted = await connect('starttls').catch((error: unknown) => error);
    expect(untrusted).toBeInstanceOf(SieveConnectionError);
    expect((untrusted as Error).message).toMatch(/TLS: .*(self.signed|certificate)/i);
    const failedUpgrade = await connect('none', { rejectUnauthorized: true }).catch((error: unknown) => error);
    expect(failedUpgrade).toBeInstanceOf(SieveConnectionError);
    expect((await logins()).length).toBe(before + 2);
  });
});

describe('rules on the server', () => {
  let doc: RulesDoc;

  beforeAll(async () => {
    // Alice already had her own active script before Tern.
    await withSieve(async (client) => {
      await client.putScript('alice-own', USER_SCRIPT);
      await client.setActive('alice-own');
    });
  });

  test('an account whose server has no ManageSieve reads as unavailable and cannot save', async () => {
    const got = await getRules(fx.bob);
    expect(got.status).toBe(200);
    expect(got.body.availability).toBe('unavailable');
    const put = await putRules(EMPTY_RULES, 0, fx.bob);
    expect(put.status).toBe(404);
    expect(put.body.error).toBe('SieveUnavailable');
  });

  test('filters file, star and label; blocked senders go to Junk; the person\'s own script keeps running', async () => {
    const first = await getRules();
    expect(first.body).toMatchObject({ availability: 'available', revision: 0 });
    const cursor = (await fx.delta(fx.alice, 0)).cursor;
    const rules: MailRules = {
      ...EMPTY_RULES,
      filters: [
        // In order: a message filed by a filter keeps the flags set before it (imap4flags), so the label comes first.
        { id: 'from-bob', name: 'Bob', enabled: true, match: 'any', conditions: [{ field: 'from', op: 'is', value: BOB.email }], actions: [{ kind: 'label', keyword: '$bob' }] },
        {
          id: 'invoices',
          name: 'Invoices "to archive"',
          enabled: true,
          match: 'all',
          conditions: [{ field: 'subject', op: 'contains', value: 'Invoice' }],
          actions: [{ kind: 'move', folder: 'Archive' }, { kind: 'star' }, { kind: 'markRead' }],
        },
        { id: 'off', name: 'Disabled', enabled: false, match: 'all', conditions: [{ field: 'subject', op: 'contains', value: 'Invoice' }], actions: [{ kind: 'delete' }] },
      ],
      blocked: ['spammer@evil.test', 'junkmail.test'],
      allowed: ['friend@junkmail.test'],
    };
    const put = await putRules(rules, 0);
    expect(put.status, put.text).toBe(200);
    doc = put.body;
    expect(doc).toMatchObject({ revision: 1, keptScript: 'alice-own' });
    // Every device of the account hears of the save through delta (the tabs load the rules again).
    const page = await fx.delta(fx.alice, cursor);
    expect(page.changes).toContainEqual(expect.objectContaining({ op: 'upsert', object: 'rules', data: { revision: 1, runs: [] } }));

    const scripts = await withSieve(async (client) => ({ list: await client.listScripts(), own: await client.getScript('alice-own') }));
    expect(scripts.list).toContainEqual({ name: TERN_SCRIPT_NAME, active: true });
    expect(scripts.own).toBe(USER_SCRIPT);

    await send({ from: BOB.email, to: ALICE.email, subject: 'Invoice 42 for November' });
    await send({ from: 'spammer@evil.test', to: ALICE.email, subject: 'Cheap watches' });
    await send({ from: 'anyone@junkmail.test', to: ALICE.email, subject: 'Domain blocked' });
    await send({ from: 'friend@junkmail.test', to: ALICE.email, subject: 'Allowed friend' });
    await send({ from: 'carol@elsewhere.test', to: ALICE.email, subject: 'userflag please' });

    const invoice = await arrived(aliceImap, 'Archive', 'Invoice 42');
    expect([...invoice.flags]).toEqual(expect.arrayContaining(['\\Flagged', '\\Seen', '$bob']));
    await arrived(aliceImap, 'Junk', 'Cheap watches');
    await arrived(aliceImap, 'Junk', 'Domain blocked');
    const friend = await arrived(aliceImap, 'INBOX', 'Allowed friend');
    expect(friend.flags.has('$bob')).toBe(false);
    const own = await arrived(aliceImap, 'INBOX', 'userflag please');
    expect(own.flags.has('$UserRule')).toBe(true);
    expect(await countSubject(aliceImap, 'INBOX', 'Invoice 42')).toBe(0);
    expect(await countSubject(aliceImap, 'Trash', 'Invoice 42')).toBe(0);
  });

  test('an auto reply arrives over SMTP, once per sender, with its multi-line text intact', async () => {
    const rules: MailRules = { ...doc.rules, autoReply: { enabled: true, subject: 'Away until Monday', body: 'I am away.\n.\nBack on Monday — Alice', startDate: '2000-01-01', endDate: '2999-12-31', days: 1 } };
    const put = await putRules(rules, doc.revision);
    expect(put.status, put.text).toBe(200);
    doc = put.body;

    await send({ from: BOB.email, to: ALICE.email, subject: 'Lunch on Friday?' });
    const reply = await arrived(bobImap, 'INBOX', 'Away until Monday');
    expect(reply.flags.has('\\Seen')).toBe(false);
    await send({ from: BOB.email, to: ALICE.email, subject: 'Lunch on Saturday then?' });
    // Pigeonhole notes the answer it did not send again (its duplicate tracking), so this is an event, not a wait.
    const log = fx.servers.logFiles.dovecot;
    await eventually(async () => /discarded duplicate vacation response to <bob@kite\.test>/.test(await readFile(log, 'utf8')), 10_000, 'the second reply to be discarded');
    // The reply's text went through dot-stuffing intact.
    const lock = await bobImap.getMailboxLock('INBOX');
    try {
      const uids = (await bobImap.search({ subject: 'Away until Monday' }, { uid: true })) || [];
      expect(uids).toHaveLength(1);
      const message = await bobImap.fetchOne(String(uids[0]), { source: true }, { uid: true });
      const source = message ? message.source!.toString('utf8') : '';
      expect(source).toMatch(/I am away\.\r\n\.\r\nBack on Monday/);
      expect(source).toMatch(/Auto-Submitted: auto-replied/i);
    } finally {
      lock.release();
    }
  });

  test('the auto reply answers mail to an alias once the alias is one of the account\'s identities', async () => {
    const carol = { email: 'carol@kite.test', password: 'Carol-pass-3!' };
    await fx.servers.addUsers([{ ...ALICE, aliases: ['alice.away@tern.test'] }, carol]);
    const carolImap = await fx.imap(carol);
    try {
      // Adding the identity writes the script again (in the background): its :addresses gain the alias.
      const added = await fx.api(fx.alice, 'PUT', '/api/identities/away', { email: 'alice.away@tern.test', name: 'Alice (away)' });
      expect(added.status, added.text).toBe(200);
      await eventually(async () => (await withSieve((client) => client.getScript(TERN_SCRIPT_NAME))).includes('"alice.away@tern.test"') || undefined, 10_000, 'the alias in the script');
      expect((await getRules()).body.revision).toBe(doc.revision);
      await send({ from: carol.email, to: 'alice.away@tern.test', subject: 'To your other address' });
      await arrived(aliceImap, 'INBOX', 'To your other address');
      await arrived(carolImap, 'INBOX', 'Away until Monday');
    } finally {
      await carolImap.logout().catch(() => undefined);
    }
  });

  test('bad input is refused with a catalogue error, and the script on the server stays as it was', async () => {
    const before = await withSieve((client) => client.getScript(TERN_SCRIPT_NAME));
    const noFolder = await putRules({ ...doc.rules, filters: [{ ...doc.rules.filters[0]!, actions: [{ kind: 'move', folder: 'No such folder' }] }] }, doc.revision);
    expect(noFolder.status).toBe(404);
    expect(noFolder.body).toMatchObject({ error: 'TargetFolderNotExists', detail: { value: 'No such folder' } });

    const backwards = await putRules({ ...doc.rules, autoReply: { ...doc.rules.autoReply, startDate: '2026-12-10', endDate: '2026-12-01' } }, doc.revision);
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ error: 'InvalidParameter', detail: { field: 'autoReply.endDate' } });

    const badAddress = await putRules({ ...doc.rules, forwarding: { enabled: true, address: 'not an address', keepCopy: true } } as MailRules, doc.revision);
    expect(badAddress.status).toBe(400);

    const stale = await putRules(doc.rules, doc.revision - 1);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe('RulesChanged');

    // Over Pigeonhole's default sieve_max_script_size (1 MB): 150 filters of 20 long conditions.
    const long = 'x'.repeat(400);
    const huge = Array.from({ length: 150 }, (_, index) => ({
      id: `f${index}`,
      name: `Filter ${index}`,
      enabled: true,
      match: 'any' as const,
      conditions: Array.from({ length: 20 }, () => ({ field: 'subject' as const, op: 'contains' as const, value: long })),
      actions: [{ kind: 'star' as const }],
    }));
    const tooLarge = await putRules({ ...doc.rules, filters: huge }, doc.revision);
    expect(tooLarge.status, tooLarge.text).toBe(403);
    expect(tooLarge.body.error).toBe('TooLargeSieveUpdate');

    expect(await withSieve((client) => client.getScript(TERN_SCRIPT_NAME))).toBe(before);
    expect((await getRules()).body.revision).toBe(doc.revision);
  });
  test('forwarding keeps a copy (redirect :copy), and the business-hours reply answers outside working hours', async () => {
    // Deterministic without a test clock: every weekday but today (in UTC) is a working day, so "now" is outside hours.
    const today = new Date().getUTCDay() || 7;
    const workDays = [1, 2, 3, 4, 5, 6, 7].filter((day) => day !== today);
    const rules: MailRules = {
      ...doc.rules,
      autoReply: { ...doc.rules.autoReply, enabled: false },
      businessHours: { enabled: true, workDays, start: '00:00', end: '23:59', timeZone: 'UTC', subject: 'Our office is closed', body: 'We answer on the next working day.' },
      forwarding: { enabled: true, address: BOB.email, keepCopy: true },
    };
    const put = await putRules(rules, doc.revision);
    expect(put.status, put.text).toBe(200);
    doc = put.body;

    await send({ from: BOB.email, to: ALICE.email, subject: 'Forward this along' });
    await arrived(aliceImap, 'INBOX', 'Forward this along');
    await arrived(bobImap, 'INBOX', 'Forward this along');
    const closed = await arrived(bobImap, 'INBOX', 'Our office is closed');
    expect(closed.flags.has('\\Seen')).toBe(false);
  });
  test('"apply to existing mail" is a gateway job over IMAP whose every step (n of N) reaches delta: matched mail is labelled and moved, the rest stays', async () => {
    const message = (from: string, subject: string) => `From: ${from}\r\nTo: ${ALICE.email}\r\nSubject: ${subject}\r\nMessage-ID: <${Math.random().toString(36).slice(2)}@kite.test>\r\n\r\nOld mail.\r\n`;
    await aliceImap.append('INBOX', message(BOB.email, 'Old receipt 1'));
    await aliceImap.append('INBOX', message(BOB.email, 'Old receipt 2'));
    await aliceImap.append('INBOX', message('carol@elsewhere.test', 'Old receipt 3'));
    const filter = {
      id: 'receipts',
      name: 'Receipts',
      enabled: true,
      match: 'all' as const,
      conditions: [{ field: 'subject' as const, op: 'contains' as const, value: 'Old receipt' }, { field: 'from' as const, op: 'contains' as const, value: 'kite.test' }],
      actions: [{ kind: 'move' as const, folder: 'Archive' }, { kind: 'label' as const, keyword: '$receipt' }, { kind: 'forward' as const, address: 'nobody@kite.test' }],
    };
    const cursor = (await fx.delta(fx.alice, 0)).cursor;
    const applied = await fx.api<{ run: RuleRun }>(fx.alice, 'POST', '/api/rules/apply', { filter });
    expect(applied.status, applied.text).toBe(202);
    expect(applied.body.run).toMatchObject({ filterId: 'receipts', filterName: 'Receipts', state: 'running', done: 0 });
    // The job runs after the answer; each step is a 'rules' entry of the log, so every device's delta brings it.
    const finished = await eventually(
      async () => {
        const activity = await fx.api<RulesActivity>(fx.alice, 'GET', '/api/rules/activity');
        const run = activity.body.runs.find((candidate) => candidate.id === applied.body.run.id);
        return run && run.state !== 'running' ? run : undefined;
      },
      10_000,
      'the run to finish',
    );
    expect(finished).toMatchObject({ state: 'done', total: 2, done: 2, error: null });
    // Started, 2 matched (0 of 2), 1 of 2, 2 of 2, done: five steps, each logged and announced.
    const { entries } = await fx.ctx.txlog.read(fx.alice.accountId, cursor, 1000);
    expect(entries.filter((entry) => entry.object === 'rules')).toHaveLength(5);
    const page = await fx.delta(fx.alice, cursor);
    expect(page.changes).toContainEqual(expect.objectContaining({ object: 'rules', data: expect.objectContaining({ runs: [expect.objectContaining({ id: finished.id, state: 'done', done: 2 })] }) }));
    const moved = await arrived(aliceImap, 'Archive', 'Old receipt 2');
    expect(moved.flags.has('$receipt')).toBe(true);
    expect(await countSubject(aliceImap, 'Archive', 'Old receipt')).toBe(2);
    expect(await countSubject(aliceImap, 'INBOX', 'Old receipt')).toBe(1);
    const noFolder = await fx.api(fx.alice, 'POST', '/api/rules/apply', { filter: { ...filter, actions: [{ kind: 'move', folder: 'Nowhere' }] } });
    expect(noFolder.status).toBe(404);
    expect((await fx.api<RulesActivity>(fx.alice, 'GET', '/api/rules/activity')).body.runs).toHaveLength(1);
  });
});

describe('forwarding in, checked', () => {
  const bobSieve = () => ManageSieveClient.connect({ host: fx.servers.host, port: fx.servers.ports.sieve, security: 'none', user: BOB.email, password: BOB.password });

  test('a test message sent to the other address arrives here when it forwards (and is removed); without forwarding the answer says it did not', async () => {
    const check = (address: string) => fx.api<{ arrived: boolean; seconds: number; error?: string }>(fx.alice, 'POST', '/api/rules/forwarding-check', { address });
    // Bob's address forwards to Alice: the other provider's forwarding, here Bob's own Sieve script.
    const client = await bobSieve();
    try {
      await client.putScript('forward-to-alice', `redirect ${JSON.stringify(ALICE.email)};\r\n`);
      await client.setActive('forward-to-alice');
    } finally {
      await client.logout();
    }
    const inboxBefore = await countSubject(aliceImap, 'INBOX', 'Tern Mail forwarding check');
    const works = await check(BOB.email);
    expect(works.status, works.text).toBe(200);
    expect(works.body.arrived).toBe(true);
    expect(works.body.seconds).toBeGreaterThanOrEqual(1);
    // The probe is Tern's own message: gone from the Inbox once seen.
    expect(await countSubject(aliceImap, 'INBOX', 'Tern Mail forwarding check')).toBe(inboxBefore);

    // Bob stops forwarding: the message stays with Bob, and the check says it did not arrive.
    const off = await bobSieve();
    try {
      await off.setActive('');
    } finally {
      await off.logout();
    }
    // The route waits 45 s for a message that will not come; the same check with a 2 s wait says so sooner.
    const account = (await fx.ctx.accounts.get(fx.alice.accountId))!;
    const broken = await checkForwarding(
      { smtp: new NodemailerSmtp(), mirrors: fx.ctx.mirrors, waitMs: 2_000 },
      { account, password: await fx.ctx.accounts.password(account.id), address: BOB.email, inbox: 'INBOX' },
    );
    expect(broken).toMatchObject({ arrived: false });
    expect(broken.seconds).toBeGreaterThanOrEqual(2);
    await arrived(bobImap, 'INBOX', 'Tern Mail forwarding check');

    expect((await check(ALICE.email)).body.error).toBe('InvalidParameter');
    expect((await check('not an address')).status).toBe(400);
  });
});


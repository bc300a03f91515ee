// Auto-clean (issue 17 point 3) against the harness's real Dovecot: the gateway's clock is one
// the test moves (mail appended now is "older than 3 days" ten days later), then a preview,
// Run now, undo and the hourly job. Where mail is (INBOX, Trash) is read over a separate IMAP
// connection, as another mail program would see it.
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AutoCleanDoc, AutoCleanInput, AutoCleanPreview, AutoCleanRun } from '../../shared/auto-clean';
import { eventually } from './support/gateway-fixture';
import { BOB, startWritesFixture, uidsByMessageId, type WritesFixture } from './support/mail-writes-fixture';

type Reply = AutoCleanDoc & AutoCleanPreview & AutoCleanRun & { error?: string; detail?: { fields?: { field: string; message: string }[] } };

const DAY = 24 * 3600_000;
/** The gateway's clock: real time moved on by the test. */
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
let fx: WritesFixture;
let bobImap: ImapFlow;
const api = (method: string, url: string, body?: unknown) => fx.api<Reply>(fx.bob, method, url, body);

const NEWSLETTERS: AutoCleanInput = { name: 'Old deals', sender: '', newsletters: true, folderId: null, ageDays: 3, action: 'trash', keepNewest: 1, enabled: false };

/** Bob's INBOX: what the rule takes (d1, d2, t1) and what it must leave (starred, a draft, the newest of a conversation, a friend's mail). */
const MAIL = [
  { id: 'd1', subject: 'Deal one', from: 'news@shop.example', headers: 'List-Id: Deals <deals.shop.example>\r\n', flags: [] as string[], moves: true },
  { id: 'd2', subject: 'Deal two', from: 'news@shop.example', headers: 'List-Unsubscribe: <mailto:leave@shop.example>\r\n', flags: [], moves: true },
  { id: 'st', subject: 'Deal starred', from: 'news@shop.example', headers: 'List-Id: Deals <deals.shop.example>\r\n', flags: ['\\Flagged'], moves: false },
  { id: 'dr', subject: 'Deal draft', from: 'news@shop.example', headers: 'List-Id: Deals <deals.shop.example>\r\n', flags: ['\\Draft'], moves: false },
  { id: 't1', subject: 'Club news', from: 'club@club.example', headers: 'List-Id: Club <club.example>\r\n', flags: [], moves: true },
  { id: 't2', subject: 'Re: Club news', from: 'club@club.example', headers: 'List-Id: Club <club.example>\r\nIn-Reply-To: <t1@autoclean.test>\r\nReferences: <t1@autoclean.test>\r\n', flags: [], moves: false },
  { id: 'fr', subject: 'Lunch?', from: 'friend@kite.test', headers: '', flags: [], moves: false },
];
const messageId = (id: string) => `<${id}@autoclean.test>`;
const moving = MAIL.filter((mail) => mail.moves);

beforeAll(async () => {
  fx = await startWritesFixture({ name: 'auto-clean', count: 2, overrides: { now } });
  bobImap = await fx.imap(BOB);
  for (const [index, mail] of MAIL.entries()) {
    const raw = `From: ${mail.from}\r\nTo: ${BOB.email}\r\nSubject: ${mail.subject}\r\nMessage-ID: ${messageId(mail.id)}\r\nDate: ${new Date(Date.now() - (MAIL.length - index) * 60_000).toUTCString()}\r\n${mail.headers}\r\nHello.\r\n`;
    await bobImap.append('INBOX', raw, mail.flags, new Date(Date.now() - (MAIL.length - index) * 60_000));
  }
  // The conversation's newest is known from the mirror's threads: wait until it has them all.
  await eventually(
    async () => Number((await fx.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.account_id = ? AND f.path = 'INBOX'", [fx.bob.accountId]))?.n) === MAIL.length,
    15_000,
    "bob's INBOX in the mirror",
  );
});
afterAll(async () => {
  await bobImap?.logout().catch(() => undefined);
  await fx?.close();
});

/** Where each test message is now, by Message-ID. */
async function where(ids: readonly string[]): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const id of ids) {
    if ((await uidsByMessageId(bobImap, 'INBOX', messageId(id))).length > 0) found[id] = 'INBOX';
    else if ((await uidsByMessageId(bobImap, 'Trash', messageId(id))).length > 0) found[id] = 'Trash';
    else found[id] = 'gone';
  }
  return found;
}

test('bad input is refused field by field; a rule that would touch everything needs a confirmation', async () => {
  const bad = await api('POST', '/api/auto-clean/rules', { ...NEWSLETTERS, ageDays: 0, sender: 'not a sender', keepNewest: -1 });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toBe('AutoCleanRuleInvalid');
  expect(bad.body.detail!.fields!.map((problem) => problem.field).sort()).toEqual(['ageDays', 'keepNewest', 'sender']);
  const absurd = await api('POST', '/api/auto-clean/preview', { ...NEWSLETTERS, ageDays: 100_000 });
  expect([absurd.status, absurd.body.detail?.fields?.[0]?.field]).toEqual([400, 'ageDays']);
  const unknown = await api('POST', '/api/auto-clean/preview', { ...NEWSLETTERS, folderId: '999999' });
  expect([unknown.status, unknown.body.error, unknown.body.detail?.fields?.[0]]).toEqual([400, 'AutoCleanRuleInvalid', { field: 'folderId', reason: 'folderMissing', message: 'This folder does not exist.' }]);
  const sent = await fx.ctx.store.get<{ id: number }>("SELECT id FROM folders WHERE account_id = ? AND special_use = 'sent'", [fx.bob.accountId]);
  const fromSent = await api('POST', '/api/auto-clean/preview', { ...NEWSLETTERS, folderId: String(sent!.id) });
  expect(fromSent.body.detail?.fields?.[0]?.message).toMatch(/never takes mail from Sent/);
  const shapeless = await api('POST', '/api/auto-clean/rules', { ...NEWSLETTERS, ageDays: 'thirty' });
  expect([shapeless.status, shapeless.body.error]).toEqual([400, 'InvalidRequestData']);

  // No sender and no newsletter condition: everything old in the Inbox.
  const everything = { ...NEWSLETTERS, newsletters: false, enabled: true };
  expect((await api('POST', '/api/auto-clean/preview', everything)).body.needsConfirmation).toBe(true);
  const refused = await api('POST', '/api/auto-clean/rules', everything);
  expect([refused.status, refused.body.error]).toEqual([409, 'AutoCleanConfirmRequired']);
  expect((await api('GET', '/api/auto-clean')).body.rules).toEqual([]);
  // Saved disabled, Run now is refused too, and nothing moves.
  const saved = await api('POST', '/api/auto-clean/rules', { ...everything, enabled: false });
  const broadId = saved.body.rules[0]!.id;
  offsetMs = 10 * DAY;
  const ran = await api('POST', `/api/auto-clean/rules/${broadId}/run`);
  expect([ran.status, ran.body.error]).toEqual([409, 'AutoCleanConfirmRequired']);
  expect(Object.values(await where(MAIL.map((mail) => mail.id))).every((place) => place === 'INBOX')).toBe(true);
  // Confirmed, it may be enabled; deleted again here (the next test's run is the newsletters').
  const confirmed = await api('PUT', `/api/auto-clean/rules/${broadId}`, { ...everything, confirmed: true });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.rules[0]).toMatchObject({ enabled: true, confirmed: true });
  expect((await api('DELETE', `/api/auto-clean/rules/${broadId}`)).body.rules).toEqual([]);
  offsetMs = 0;
});

test('the run moves exactly what the preview listed, nothing starred, draft or newest of its conversation; undo puts it back', async () => {
  // Today nothing is three days old.
  expect((await api('POST', '/api/auto-clean/preview', NEWSLETTERS)).body.count).toBe(0);
  offsetMs = 10 * DAY;
  const preview = (await api('POST', '/api/auto-clean/preview', NEWSLETTERS)).body;
  const expected: number[] = [];
  for (const mail of moving) expected.push(...(await uidsByMessageId(bobImap, 'INBOX', messageId(mail.id))));
  expect(preview.uids).toEqual(expected.sort((a, b) => a - b));
  expect(preview).toMatchObject({ count: 3, folderPath: 'INBOX', folderTotal: MAIL.length, kept: { starred: 1, newest: 1 }, needsConfirmation: false });
  expect(preview.sample.map((item) => item.subject).sort()).toEqual(moving.map((mail) => mail.subject).sort());

  const created = await api('POST', '/api/auto-clean/rules', NEWSLETTERS);
  const ruleId = created.body.rules[0]!.id;
  const run = await api('POST', `/api/auto-clean/rules/${ruleId}/run`);
  expect(run.status).toBe(200);
  expect(run.body).toMatchObject({ count: 3, trigger: 'manual', fromPath: 'INBOX', toPath: 'Trash', error: null, undoneAt: null });
  const moved = await fx.ctx.store.all<{ fromUid: number }>('SELECT from_uid AS "fromUid" FROM auto_clean_moves WHERE run_id = ? ORDER BY from_uid', [Number(run.body.id)]);
  expect(moved.map((row) => Number(row.fromUid))).toEqual(preview.uids);
  expect(await where(MAIL.map((mail) => mail.id))).toEqual(Object.fromEntries(MAIL.map((mail) => [mail.id, mail.moves ? 'Trash' : 'INBOX'])));
  expect((await api('GET', '/api/auto-clean')).body.runs[0]).toMatchObject({ id: run.body.id, count: 3 });

  const undone = await api('POST', `/api/auto-clean/runs/${run.body.id}/undo`);
  expect(undone.body).toMatchObject({ restored: 3, lost: 0 });
  expect(undone.body.undoneAt).not.toBeNull();
  expect(Object.values(await where(MAIL.map((mail) => mail.id))).every((place) => place === 'INBOX')).toBe(true);
  const twice = await api('POST', `/api/auto-clean/runs/${run.body.id}/undo`);
  expect([twice.status, twice.body.error]).toEqual([410, 'AutoCleanUndoUnavailable']);
  await api('DELETE', `/api/auto-clean/rules/${ruleId}`);
});

test('enabled, the rule runs on the hour by the job worker with Bob logged out (no session, no mirror); an undo that finds mail deleted from Trash says so', async () => {
  offsetMs = 10 * DAY;
  // The mirror has the undone mail back in INBOX (new UIDs) before the rule looks at threads.
  await eventually(
    async () => Number((await fx.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.account_id = ? AND f.path = 'INBOX'", [fx.bob.accountId]))?.n) === MAIL.length,
    15_000,
    "bob's INBOX back in the mirror",
  );
  const created = await api('POST', '/api/auto-clean/rules', { ...NEWSLETTERS, enabled: true });
  expect(created.status).toBe(200);
  // Every browser closed and signed out: no session, so the gateway stops Bob's mirror; the job still runs (its own IMAP connection).
  expect((await fx.api(fx.bob, 'POST', '/api/logout')).status).toBe(204);
  await eventually(() => fx.ctx.mirrors.get(fx.bob.accountId) === undefined, 15_000, "bob's mirror stopped");
  offsetMs += 3600_000;
  fx.ctx.jobs.worker.kick();
  const run = await eventually(async () => (await fx.ctx.autoClean.doc(fx.bob.accountId)).runs.find((entry) => entry.trigger === 'schedule'), 15_000, 'the scheduled run');
  expect(run).toMatchObject({ count: 3, error: null });
  expect(await where(moving.map((mail) => mail.id))).toEqual(Object.fromEntries(moving.map((mail) => [mail.id, 'Trash'])));
  // The next hour is queued already (one job per account and hour).
  const next = await fx.ctx.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'autoclean.run' AND state = 'queued'", []);
  expect(Number(next!.n)).toBe(1);

  // One of them deleted for good from Trash: undo puts back the two it can and counts the third lost.
  await bobImap.mailboxOpen('Trash');
  await bobImap.messageDelete({ header: { 'message-id': messageId('d1') } });
  expect(await fx.ctx.autoClean.undo(fx.bob.accountId, Number(run.id))).toMatchObject({ restored: 2, lost: 1 });
  expect(await where(['d1', 'd2', 't1'])).toEqual({ d1: 'gone', d2: 'INBOX', t1: 'INBOX' });
});

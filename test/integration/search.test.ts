// GET /api/search on a real gateway mirroring a real Dovecot (1,200 seeded messages):
// each operator checked against what the mirror holds, the 1,000-match limit, body words
// found on the server and then in the index, the server-side fallback for a mirror that
// is not complete, and bad input answered from the catalogue. What the mirror holds is read
// through the gateway's store and judged here in JavaScript, so the test's own expectations
// do not depend on the engine's SQL.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { searchResponseSchema, type SearchResponse } from '../../shared/api/reading';
import { LocalSearch } from '../../src-server/search/local-search';
import { parseSearch } from '../../src-server/search/search-query';
import { startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';

/** A mirrored message, as much of its row as the expectations need. */
interface Mirrored {
  readonly id: number;
  readonly thread_id: number;
  readonly uid: number;
  readonly folder_id: number;
  readonly folder: string;
  readonly subject: string;
  readonly from_json: string;
  readonly to_json: string;
  readonly cc_json: string;
  readonly flags: string;
  readonly unseen: number;
  readonly received_at: number;
  readonly attachments_json: string;
  readonly snippet: string;
  readonly message_id_header: string | null;
}

/** Every mirrored message, by id. */
const mirrored = () =>
  fx.ctx.store.all<Mirrored>(
    `SELECT m.id, m.thread_id, m.uid, m.folder_id, f.path AS folder, m.subject, m.from_json, m.to_json, m.cc_json, m.flags, m.unseen,
       m.received_at, m.attachments_json, m.snippet, m.message_id_header
     FROM messages m JOIN folders f ON f.id = m.folder_id ORDER BY m.id`,
  );
const emails = (json: string) => (JSON.parse(json) as { email: string }[]).map((address) => address.email);
/** The paperclip rule (spec §5) as the test's own: a part with no contentId or over 12 KB. */
const paperclip = (message: Mirrored) =>
  (JSON.parse(message.attachments_json) as { contentId?: string | null; size?: number }[]).some((part) => part.contentId == null || (part.size ?? 0) > 12288);
/** The default scope leaves Trash and Junk out. */
const inScope = (message: Mirrored) => message.folder !== 'Trash' && message.folder !== 'Junk';
/** How many mirrored messages in the default scope pass `test`. */
const count = async (test: (message: Mirrored) => boolean) => (await mirrored()).filter((message) => inScope(message) && test(message)).length;

let fx: GatewayFixture;
const ids: Record<string, string> = {};
beforeAll(async () => {
  // A slow sweep: the fallback test edits the mirror and must not race a sync step.
  fx = await startGatewayFixture({ name: 'search', count: 1200, env: { TERN_MIRROR_SWEEP_MS: '600000' } });
  await fx.mirror.whenFullyMirrored;
  for (const row of await fx.ctx.store.all<{ id: number; path: string }>('SELECT id, path FROM folders')) ids[row.path] = String(row.id);
});
afterAll(() => fx?.close());


function get(query: Record<string, string>, token: string | null = fx.token): Promise<Response> {
  return fetch(`${fx.baseUrl}/api/search?${new URLSearchParams(query)}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
}

async function search(q: string, extra: Record<string, string> = {}): Promise<SearchResponse> {
  const reply = await get({ q, limit: '1000', ...extra });
  expect(reply.status, q).toBe(200);
  return searchResponseSchema.parse(await reply.json());
}

/** The messages of the result threads, from the mirror. */
async function messagesOf(result: SearchResponse): Promise<Mirrored[]> {
  const threadIds = new Set(result.threads.map((thread) => Number(thread.id)));
  return (await mirrored()).filter((message) => threadIds.has(message.thread_id));
}

async function expectError(reply: Promise<Response>, status: number, error: string): Promise<void> {
  const response = await reply;
  expect({ status: response.status, error: ((await response.json()) as { error: string }).error }).toEqual({ status, error });
}

describe('operators', () => {
  test('from: finds exactly the messages of that sender', async () => {
    const bySender = new Map<string, number>();
    for (const message of (await mirrored()).filter(inScope)) {
      const email = emails(message.from_json)[0]!;
      bySender.set(email, (bySender.get(email) ?? 0) + 1);
    }
    // The second most frequent sender.
    const [, sender] = [...bySender].map(([email, n]) => ({ email, n })).sort((a, b) => b.n - a.n);
    const started = performance.now();
    const result = await search(`from:${sender!.email}`);
    console.log(`[search] from:${sender!.email} over ${fx.seeded.messages} messages: ${(performance.now() - started).toFixed(1)} ms over HTTP`);
    expect(result.matchedMessages).toBe(sender!.n);
    expect(result.complete).toBe(true);
    expect(result.threads.every((thread) => thread.participants.some((person) => person.email === sender!.email))).toBe(true);
  });

  test('to: matches To and Cc', async () => {
    const email = emails((await mirrored()).find((message) => message.cc_json !== '[]')!.cc_json)[0]!;
    const result = await search(`to:${email}`);
    const same = (other: string) => other.toLowerCase() === email.toLowerCase();
    const expected = await count((message) => emails(message.to_json).some(same) || emails(message.cc_json).some(same));
    expect(result.matchedMessages).toBe(expected);
    expect((await messagesOf(result)).some((message) => message.to_json.includes(email) || message.cc_json.includes(email))).toBe(true);
  });

  test('subject: with a quoted phrase matches those words in that order', async () => {
    const row = (await mirrored()).find((message) => !/^re:/i.test(message.subject) && message.subject.length > 20);
    const phrase = row!.subject.split(/\s+/).slice(0, 3).join(' ');
    const result = await search(`subject:"${phrase}"`);
    expect(result.matchedMessages).toBeGreaterThan(0);
    const normalise = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    expect(result.threads.every((thread) => normalise(thread.subject).includes(normalise(phrase)))).toBe(true);
  });

  test('has:attachment, is:unread, is:starred and in: count what the mirror holds', async () => {
    const attachment = await search('has:attachment');
    expect(attachment.matchedMessages).toBe(Math.min(1000, await count(paperclip)));
    expect(attachment.threads.every((thread) => thread.hasAttachments)).toBe(true);

    const unread = await search('is:unread');
    expect(unread.matchedMessages).toBe(await count((message) => message.unseen === 1));
    expect(unread.threads.every((thread) => thread.unreadCount > 0)).toBe(true);

    const starred = await search('is:starred');
    expect(starred.matchedMessages).toBe(await count((message) => (JSON.parse(message.flags) as string[]).includes('\\Flagged')));
    expect(starred.matchedMessages).toBeGreaterThan(0);
    expect(starred.threads.every((thread) => thread.starred)).toBe(true);

    const sent = await search('in:sent');
    expect(sent.matchedMessages).toBe(fx.seeded.byFolder.Sent);
    expect(sent.threads.every((thread) => thread.folderIds.includes(ids.Sent!))).toBe(true);
    const nested = await search('in:Projects/2026');
    expect(nested.matchedMessages).toBe(fx.seeded.byFolder['Projects/2026']);
    const trash = await search('in:trash');
    expect(trash.matchedMessages).toBe(fx.seeded.byFolder.Trash);
    expect((await search('in:nosuchfolder')).threads).toEqual([]);
  });

  test('after: and before: are whole UTC days, after inclusive, before exclusive', async () => {
    const after = Date.UTC(2026, 8, 1);
    const before = Date.UTC(2026, 9, 1);
    const result = await search('after:2026-09-01 before:2026/10/01');
    expect(result.matchedMessages).toBe(await count((message) => message.received_at >= after && message.received_at < before));
    expect(result.matchedMessages).toBeGreaterThan(0);
  });

  test('words and quoted phrases match subject, people and snippet; operators combine', async () => {
    const row = (await mirrored()).filter((message) => inScope(message) && message.snippet.length > 80).at(-1);
    // Three consecutive words of the snippet, letters only.
    const all = row!.snippet.split(/\s+/);
    const start = all.findIndex((_, i) => all.slice(i, i + 3).length === 3 && all.slice(i, i + 3).every((word) => /^\p{L}{3,}$/u.test(word)));
    const words = all.slice(start, start + 3);
    expect(words).toHaveLength(3);
    const phrase = words.join(' ');
    const byPhrase = await search(`"${phrase}"`);
    expect(byPhrase.threads.map((thread) => thread.id)).toContain(String(row!.thread_id));
    // Out of order the phrase does not match, the words do.
    const shuffled = [...words].reverse().join(' ');
    expect((await search(`"${shuffled}"`)).threads.map((thread) => thread.id)).not.toContain(String(row!.thread_id));
    const byWords = await search(shuffled);
    expect(byWords.matchedMessages).toBeGreaterThanOrEqual(byPhrase.matchedMessages);

    const sender = emails((await mirrored()).find((message) => message.unseen === 1)!.from_json)[0]!;
    const combined = await search(`from:${sender} is:unread`);
    expect(combined.matchedMessages).toBe(await count((message) => message.unseen === 1 && emails(message.from_json)[0] === sender));
  });

  test('the folderId parameter limits the search to that folder', async () => {
    const result = await search('has:attachment', { folderId: ids.INBOX! });
    expect(result.matchedMessages).toBe(await count((message) => message.folder === 'INBOX' && paperclip(message)));
  });
});

describe('limits and fallbacks', () => {
  test('at most 1,000 messages match; limit caps the threads returned', async () => {
    const started = performance.now();
    const all = await search('in:anywhere after:1990-01-01');
    console.log(`[search] all ${fx.seeded.messages} messages (1,000-match cap): ${(performance.now() - started).toFixed(1)} ms over HTTP`);
    expect(all).toMatchObject({ matchedMessages: 1000, truncated: true });
    const lastAt = all.threads.map((thread) => thread.lastMessageAt);
    expect(lastAt).toEqual([...lastAt].sort((a, b) => b - a));
    const few = await search('in:anywhere after:1990-01-01', { limit: '5' });
    expect(few.threads.map((thread) => thread.id)).toEqual(all.threads.slice(0, 5).map((thread) => thread.id));
  });

  test('a word only in a body is found on the server, and in the index once the body was read', async () => {
    const word = 'zanzibarquux';
    const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(60);
    const client = await fx.otherClient();
    try {
      await client.append('INBOX', `From: Quinn <quinn@example.org>\r\nTo: alice@tern.test\r\nSubject: Long notes\r\nMessage-ID: <long-notes@example.org>\r\n\r\n${filler}\r\nThe code word is ${word}.\r\n`);
    } finally {
      await client.logout();
    }
    await fx.mirror.resyncNow('INBOX');
    const row = (await mirrored()).find((message) => message.message_id_header === '<long-notes@example.org>');
    expect(row!.snippet).not.toContain(word);
    const started = performance.now();
    const fromServer = await search(word);
    console.log(`[search] body word via IMAP SEARCH fallback: ${(performance.now() - started).toFixed(1)} ms over HTTP`);
    expect(fromServer.threads.map((thread) => thread.id)).toEqual([String(row!.thread_id)]);
    expect(fromServer.complete).toBe(true);

    await fetch(`${fx.baseUrl}/api/messages/${row!.id}/body`, { headers: { authorization: `Bearer ${fx.token}` } });
    expect((await search(word)).threads.map((thread) => thread.id)).toEqual([String(row!.thread_id)]);
    // The mirror's index alone (no server asked) finds it now.
    const local = await new LocalSearch(fx.ctx.store).run({ accountId: fx.accountId, search: parseSearch(word), folderIds: Object.values(ids).map(Number), limit: 10 });
    expect(local.map((hit) => hit.id)).toEqual([row!.id]);
  });

  test('while a folder is not fully mirrored, the server is searched for the part not mirrored yet', async () => {
    await fx.mirror.resyncNow('Archive');
    const victim = (await mirrored()).filter((message) => message.folder === 'Archive').sort((a, b) => b.uid - a.uid)[0];
    // Pretend the backfill has not reached this message yet: the mirror's state for a folder mid-backfill.
    await fx.ctx.store.run('DELETE FROM messages WHERE id = ?', [victim!.id]);
    await fx.ctx.store.run('UPDATE folders SET backfilled_to = ? WHERE id = ?', [victim!.uid + 1, victim!.folder_id]);
    const result = await search(`in:archive subject:"${victim!.subject.replace(/^(Re|AW|Fwd?):\s*/i, '')}"`);
    expect(result.pendingOnServer).toBeGreaterThanOrEqual(1);
    expect(result.complete).toBe(true);
    // The next sync step mirrors it again, and then the mirror answers by itself.
    await fx.mirror.resyncNow('Archive');
    const back = (await mirrored()).find((message) => message.folder_id === victim!.folder_id && message.uid === victim!.uid);
    expect(back).toBeDefined();
    const after = await search(`in:archive subject:"${victim!.subject.replace(/^(Re|AW|Fwd?):\s*/i, '')}"`);
    expect(after.pendingOnServer).toBe(0);
    expect(after.matchedMessages).toBeGreaterThanOrEqual(1);
  });
});

describe('bad input', () => {
  test('missing or malformed parameters and operator values are catalogue errors', async () => {
    await expectError(get({}), 400, 'InvalidRequestData');
    await expectError(get({ q: '' }), 400, 'InvalidRequestData');
    await expectError(get({ q: '   ' }), 400, 'InvalidRequestData');
    await expectError(get({ q: 'x'.repeat(1001) }), 400, 'InvalidRequestData');
    await expectError(get({ q: 'invoice', limit: '1001' }), 400, 'InvalidRequestData');
    await expectError(get({ q: 'invoice', limit: 'many' }), 400, 'InvalidRequestData');
    await expectError(get({ q: 'invoice', folderId: 'inbox' }), 400, 'InvalidRequestData');
    await expectError(get({ q: 'invoice', folderId: '999999' }), 404, 'FolderNotFound');
    await expectError(get({ q: 'invoice', sort: 'asc' }), 400, 'InvalidRequestData');
    // What the search box refuses, the gateway refuses alike (shared/search-syntax.ts), naming the operator.
    await expectError(get({ q: 'before:2026-13-45' }), 400, 'InvalidSearchQuery');
    await expectError(get({ q: 'after:yesterday' }), 400, 'InvalidSearchQuery');
    await expectError(get({ q: 'has:pizza' }), 400, 'InvalidSearchQuery');
    await expectError(get({ q: 'is:maybe' }), 400, 'InvalidSearchQuery');
    await expectError(get({ q: 'invoice foo:bar' }), 400, 'InvalidSearchQuery');
    await expectError(get({ q: 'subject:"unclosed' }), 400, 'InvalidSearchQuery');
    const refused = (await (await get({ q: 'invoice foo:bar' })).json()) as { description: string; detail: { operator: string } };
    expect(refused.detail.operator).toBe('foo');
    expect(refused.description).toMatch(/“foo:” is not a search operator/);
    await expectError(get({ q: 'invoice' }, null), 400, 'TokenParamMissing');
    await expectError(get({ q: 'invoice' }, 'forged'), 401, 'InvalidToken');
  });

  test('FTS5 and IMAP syntax in a query is just text: no crash, no injection', async () => {
    for (const q of ['NEAR(a b) OR c', '" * ^ : ( ) -"', 'subject:"closed ( ) *"', 'from:', '{5}\r\nA1 LOGOUT', 'a"b"c', 'sender : x', '*', '%']) {
      const reply = await get({ q });
      expect(reply.status, q).toBe(200);
      searchResponseSchema.parse(await reply.json());
    }
  });
});

describe('diacritics folded on both sides (shared/search-fold.ts)', () => {
  test('"malgorzata" finds every message of Małgorzata, as "Małgorzata" does', async () => {
    const names = (json: string) => json.toLowerCase().includes('małgorzata');
    const mine = await count((message) => names(message.from_json) || names(message.to_json) || names(message.cc_json));
    expect(mine).toBeGreaterThan(0);
    const folded = await search('malgorzata');
    expect(folded.matchedMessages).toBeGreaterThanOrEqual(mine);
    expect((await search('Małgorzata')).matchedMessages).toBe(folded.matchedMessages);
    const sent = await count((message) => names(message.from_json));
    expect((await search('from:malgorzata')).matchedMessages).toBe(sent);
  });
});

describe('timings (figures, not assertions)', () => {
  test('searches over the mirrored mailbox, over loopback HTTP', async () => {
    const queries = ['invoice', 'meeting', 'from:anna', 'is:unread', 'has:attachment', 'in:sent report', '"quarterly"', 'after:2026-06-01', 'to:alice', 'subject:re'];
    const times: number[] = [];
    const slow = new Map<string, number>();
    for (let round = 0; round < 3; round++) {
      for (const q of queries) {
        const started = performance.now();
        const reply = await get({ q, limit: '100' });
        const body = searchResponseSchema.parse(await reply.json());
        const ms = performance.now() - started;
        times.push(ms);
        if (ms > 20) slow.set(`${q} (${body.matchedMessages} matches)`, Math.max(ms, slow.get(q) ?? 0));
      }
    }
    if (slow.size > 0) console.log(`[search] over 20 ms: ${[...slow].map(([q, ms]) => `${q} ${ms.toFixed(0)} ms`).join('; ')}`);
    const sorted = [...times].sort((a, b) => a - b);
    console.log(`[search] ${times.length} searches over ${fx.seeded.messages} messages: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(1)} ms`);
  });
});

// GET /api/search on a real gateway mirroring a real Dovecot (1,200 seeded messages):
// each operator checked against what the mirror holds, the 1,000-match limit, body words
// found on the server and then in the index, the server-side fallback for a mirror that
// is not complete, and bad input answered from the catalogue.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { searchResponseSchema, type SearchResponse } from '../../shared/api/reading';
import { startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';

/** The paperclip rule (spec §5) as the test's own SQL: a part with no contentId or over 12 KB. */
const PAPERCLIP_SQL =
  "EXISTS (SELECT 1 FROM json_each(m.attachments_json) a WHERE json_extract(a.value, '$.contentId') IS NULL OR json_extract(a.value, '$.size') > 12288)";

let fx: GatewayFixture;
const ids: Record<string, string> = {};
beforeAll(async () => {
  // A slow sweep: the fallback test edits the mirror and must not race a sync step.
  fx = await startGatewayFixture({ name: 'search', count: 1200, env: { TERN_MIRROR_SWEEP_MS: '600000' } });
  await fx.mirror.whenFullyMirrored;
  for (const row of sql<{ id: number; path: string }>('SELECT id, path FROM folders')) ids[row.path] = String(row.id);
});
afterAll(() => fx?.close());

const sql = <T>(query: string, ...params: unknown[]) => fx.ctx.db.prepare(query).all(...params) as T[];
const count = (where: string, ...params: unknown[]) =>
  sql<{ n: number }>(`SELECT COUNT(*) AS n FROM messages m JOIN folders f ON f.id = m.folder_id WHERE ${where}`, ...params)[0]!.n;
/** The default scope leaves Trash and Junk out. */
const IN_SCOPE = `f.path NOT IN ('Trash', 'Junk')`;

function get(query: Record<string, string>, token: string | null = fx.token): Promise<Response> {
  return fetch(`${fx.baseUrl}/api/search?${new URLSearchParams(query)}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
}

async function search(q: string, extra: Record<string, string> = {}): Promise<SearchResponse> {
  const reply = await get({ q, limit: '1000', ...extra });
  expect(reply.status, q).toBe(200);
  return searchResponseSchema.parse(await reply.json());
}

/** The messages of the result threads, from the mirror. */
function messagesOf(result: SearchResponse): { id: number; folder: string; from_json: string; to_json: string; cc_json: string; subject: string; flags: string; received_at: number; attachments_json: string; unseen: number }[] {
  const threadIds = JSON.stringify(result.threads.map((thread) => Number(thread.id)));
  return sql(`SELECT m.*, f.path AS folder FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.thread_id IN (SELECT value FROM json_each(?))`, threadIds);
}

async function expectError(reply: Promise<Response>, status: number, error: string): Promise<void> {
  const response = await reply;
  expect({ status: response.status, error: ((await response.json()) as { error: string }).error }).toEqual({ status, error });
}

describe('operators', () => {
  test('from: finds exactly the messages of that sender', async () => {
    const [sender] = sql<{ email: string; n: number }>(
      `SELECT json_extract(m.from_json, '$[0].email') AS email, COUNT(*) AS n FROM messages m JOIN folders f ON f.id = m.folder_id
       WHERE ${IN_SCOPE} GROUP BY email ORDER BY n DESC LIMIT 1 OFFSET 1`,
    );
    const started = performance.now();
    const result = await search(`from:${sender!.email}`);
    console.log(`[search] from:${sender!.email} over ${fx.seeded.messages} messages: ${(performance.now() - started).toFixed(1)} ms over HTTP`);
    expect(result.matchedMessages).toBe(sender!.n);
    expect(result.complete).toBe(true);
    expect(result.threads.every((thread) => thread.participants.some((person) => person.email === sender!.email))).toBe(true);
  });

  test('to: matches To and Cc', async () => {
    const [recipient] = sql<{ email: string }>(`SELECT json_extract(cc_json, '$[0].email') AS email FROM messages WHERE cc_json <> '[]' LIMIT 1`);
    const email = recipient!.email;
    const result = await search(`to:${email}`);
    const expected = count(`${IN_SCOPE} AND (m.to_json LIKE ? OR m.cc_json LIKE ?)`, `%"${email}"%`, `%"${email}"%`);
    expect(result.matchedMessages).toBe(expected);
    expect(messagesOf(result).some((message) => message.to_json.includes(email) || message.cc_json.includes(email))).toBe(true);
  });

  test('subject: with a quoted phrase matches those words in that order', async () => {
    const [row] = sql<{ subject: string }>(`SELECT subject FROM messages WHERE subject NOT LIKE 'Re:%' AND length(subject) > 20 LIMIT 1`);
    const phrase = row!.subject.split(/\s+/).slice(0, 3).join(' ');
    const result = await search(`subject:"${phrase}"`);
    expect(result.matchedMessages).toBeGreaterThan(0);
    const normalise = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    expect(result.threads.every((thread) => normalise(thread.subject).includes(normalise(phrase)))).toBe(true);
  });

  test('has:attachment, is:unread, is:starred and in: count what the mirror holds', async () => {
    const attachment = await search('has:attachment');
    expect(attachment.matchedMessages).toBe(Math.min(1000, count(`${IN_SCOPE} AND ${PAPERCLIP_SQL}`)));
    expect(attachment.threads.every((thread) => thread.hasAttachments)).toBe(true);

    const unread = await search('is:unread');
    expect(unread.matchedMessages).toBe(count(`${IN_SCOPE} AND m.unseen = 1`));
    expect(unread.threads.every((thread) => thread.unreadCount > 0)).toBe(true);

    const starred = await search('is:starred');
    expect(starred.matchedMessages).toBe(count(`${IN_SCOPE} AND m.flags LIKE '%Flagged%'`));
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
    expect(result.matchedMessages).toBe(count(`${IN_SCOPE} AND m.received_at >= ? AND m.received_at < ?`, after, before));
    expect(result.matchedMessages).toBeGreaterThan(0);
  });

  test('words and quoted phrases match subject, people and snippet; operators combine', async () => {
    const [row] = sql<{ id: number; thread_id: number; snippet: string }>(
      `SELECT m.id, m.thread_id, m.snippet FROM messages m JOIN folders f ON f.id = m.folder_id WHERE ${IN_SCOPE} AND length(m.snippet) > 80 ORDER BY m.id DESC LIMIT 1`,
    );
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

    const [sender] = sql<{ email: string }>(`SELECT json_extract(from_json, '$[0].email') AS email FROM messages WHERE unseen = 1 LIMIT 1`);
    const combined = await search(`from:${sender!.email} is:unread`);
    expect(combined.matchedMessages).toBe(
      count(`${IN_SCOPE} AND m.unseen = 1 AND json_extract(m.from_json, '$[0].email') = ?`, sender!.email),
    );
  });

  test('the folderId parameter limits the search to that folder', async () => {
    const result = await search('has:attachment', { folderId: ids.INBOX! });
    expect(result.matchedMessages).toBe(count(`f.path = 'INBOX' AND ${PAPERCLIP_SQL}`));
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
    const [row] = sql<{ id: number; thread_id: number; snippet: string }>(`SELECT id, thread_id, snippet FROM messages WHERE message_id_header = '<long-notes@example.org>'`);
    expect(row!.snippet).not.toContain(word);
    const started = performance.now();
    const fromServer = await search(word);
    console.log(`[search] body word via IMAP SEARCH fallback: ${(performance.now() - started).toFixed(1)} ms over HTTP`);
    expect(fromServer.threads.map((thread) => thread.id)).toEqual([String(row!.thread_id)]);
    expect(fromServer.complete).toBe(true);

    await fetch(`${fx.baseUrl}/api/messages/${row!.id}/body`, { headers: { authorization: `Bearer ${fx.token}` } });
    expect((await search(word)).threads.map((thread) => thread.id)).toEqual([String(row!.thread_id)]);
    const indexed = sql<{ rowid: number }>(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?`, `body : "${word}"`);
    expect(indexed.map((hit) => hit.rowid)).toEqual([row!.id]);
  });

  test('while a folder is not fully mirrored, the server is searched for the part not mirrored yet', async () => {
    await fx.mirror.resyncNow('Archive');
    const [victim] = sql<{ id: number; uid: number; subject: string; folder_id: number }>(
      `SELECT m.id, m.uid, m.subject, m.folder_id FROM messages m JOIN folders f ON f.id = m.folder_id WHERE f.path = 'Archive' ORDER BY m.uid DESC LIMIT 1`,
    );
    // Pretend the backfill has not reached this message yet: the mirror's state for a folder mid-backfill.
    fx.ctx.db.prepare('DELETE FROM messages WHERE id = ?').run(victim!.id);
    fx.ctx.db.prepare('UPDATE folders SET backfilled_to = ? WHERE id = ?').run(victim!.uid + 1, victim!.folder_id);
    const result = await search(`in:archive subject:"${victim!.subject.replace(/^(Re|AW|Fwd?):\s*/i, '')}"`);
    expect(result.pendingOnServer).toBeGreaterThanOrEqual(1);
    expect(result.complete).toBe(true);
    // The next sync step mirrors it again, and then the mirror answers by itself.
    await fx.mirror.resyncNow('Archive');
    const [back] = sql<{ id: number }>('SELECT id FROM messages WHERE folder_id = ? AND uid = ?', victim!.folder_id, victim!.uid);
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
    const mine = count(`${IN_SCOPE} AND (m.from_json LIKE ? OR m.to_json LIKE ? OR m.cc_json LIKE ?)`, '%Małgorzata%', '%Małgorzata%', '%Małgorzata%');
    expect(mine).toBeGreaterThan(0);
    const folded = await search('malgorzata');
    expect(folded.matchedMessages).toBeGreaterThanOrEqual(mine);
    expect((await search('Małgorzata')).matchedMessages).toBe(folded.matchedMessages);
    const sent = count(`${IN_SCOPE} AND m.from_json LIKE ?`, '%Małgorzata%');
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

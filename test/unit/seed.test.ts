// Tests for the Maildir seeder (test/harness/seed): determinism, MIME
// correctness as seen by a real parser (mailparser), thread integrity, and
// the Maildir conventions Dovecot relies on (flag suffixes, S= size, mtime).

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SUBJECT_TEMPLATES, NEWSLETTERS, PEOPLE, SPAMMERS } from '../harness/seed/corpus';
import { folderDir } from '../harness/seed/maildir';
import { buildMessage, encodeWords, htmlEntity, multipartEntity, plainEntity, quotedPrintable } from '../harness/seed/mime';
import { SEED_FOLDERS, seedMailbox, type SeedSummary } from '../harness/seed/seed-mailbox';

const OWNER = { name: 'Dana Ünal', email: 'dana@tern.test' };
const OTHER = { name: 'Bob Démo', email: 'bob@tern.test' };
const NOW = new Date('2026-11-01T09:00:00Z');
const COUNT = 500;
const FILE_RE = /^(\d+)\.M(\d+)P\d+\.tern,S=(\d+):2,(D?F?R?S?T?)$/;

interface Seeded {
  folder: string;
  name: string;
  path: string;
}
interface Parsed extends Seeded {
  mail: ParsedMail;
  raw: Buffer;
}

function listMaildir(root: string): Seeded[] {
  const out: Seeded[] = [];
  for (const folder of SEED_FOLDERS) {
    const cur = join(folderDir(root, folder), 'cur');
    for (const name of readdirSync(cur).sort()) out.push({ folder, name, path: join(cur, name) });
  }
  return out;
}

function addrs(a: AddressObject | AddressObject[] | undefined): { name: string; address?: string }[] {
  if (!a) return [];
  return (Array.isArray(a) ? a : [a]).flatMap((o) => o.value);
}

function refsOf(m: ParsedMail): string[] {
  if (!m.references) return [];
  return Array.isArray(m.references) ? m.references : [m.references];
}

const tmpDirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tern-seed-'));
  tmpDirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});

describe('seedMailbox', () => {
  let dirA: string;
  let summary: SeedSummary;
  let files: Seeded[];
  let parsed: Parsed[];

  beforeAll(async () => {
    dirA = tempDir();
    summary = seedMailbox({ maildir: join(dirA, 'Maildir'), owner: OWNER, count: COUNT, seed: 7, now: NOW, otherAccounts: [OTHER] });
    files = listMaildir(join(dirA, 'Maildir'));
    parsed = [];
    for (const f of files) {
      const raw = readFileSync(f.path);
      parsed.push({ ...f, raw, mail: await simpleParser(raw, { keepCidLinks: true }) });
    }
  });

  it('is deterministic for a seed and differs for another seed', () => {
    const dirB = tempDir();
    const dirC = tempDir();
    seedMailbox({ maildir: dirB, owner: OWNER, count: COUNT, seed: 7, now: NOW, otherAccounts: [OTHER] });
    seedMailbox({ maildir: dirC, owner: OWNER, count: COUNT, seed: 8, now: NOW, otherAccounts: [OTHER] });
    const b = listMaildir(dirB);
    expect(b.map((f) => f.folder + '/' + f.name)).toEqual(files.map((f) => f.folder + '/' + f.name));
    b.forEach((f, i) => expect(readFileSync(f.path).equals(parsed[i]!.raw)).toBe(true));
    const c = listMaildir(dirC);
    expect(c.map((f) => f.name)).not.toEqual(files.map((f) => f.name));
    // A single INBOX (the bench's 20k scenario): the same messages, every one of them in INBOX.
    const dirD = tempDir();
    const single = seedMailbox({ maildir: dirD, owner: OWNER, count: COUNT, seed: 7, now: NOW, otherAccounts: [OTHER], singleFolder: 'INBOX' });
    const d = listMaildir(dirD);
    expect(single.byFolder).toEqual({ ...Object.fromEntries(SEED_FOLDERS.map((folder) => [folder, 0])), INBOX: COUNT });
    expect(d.every((f) => f.folder === 'INBOX')).toBe(true);
    expect(d.map((f) => f.name).sort()).toEqual(files.map((f) => f.name).sort());
  });

  it('writes exactly `count` messages and a consistent summary', () => {
    expect(summary.messages).toBe(COUNT);
    expect(files).toHaveLength(COUNT);
    expect(Object.values(summary.byFolder).reduce((a, b) => a + b, 0)).toBe(COUNT);
    for (const folder of SEED_FOLDERS) expect(files.filter((f) => f.folder === folder).length).toBe(summary.byFolder[folder]);
    expect(summary.bytes).toBe(parsed.reduce((n, p) => n + p.raw.length, 0));
    for (const folder of ['INBOX', 'Sent', 'Archive', 'Projects/2026', 'Newsletters', 'Junk', 'Trash', 'Drafts']) {
      expect(summary.byFolder[folder], folder).toBeGreaterThan(0);
    }
    // One root (no In-Reply-To) per thread.
    expect(parsed.filter((p) => !p.mail.inReplyTo).length).toBe(summary.threads);
  });

  it('lays out Maildir++ folders and a Dovecot 2.3 subscriptions file', () => {
    const root = join(dirA, 'Maildir');
    expect(statSync(join(root, '.Projects.2026', 'maildirfolder')).size).toBe(0);
    for (const sub of ['cur', 'new', 'tmp']) expect(statSync(join(root, '.Sent', sub)).isDirectory()).toBe(true);
    expect(readFileSync(join(root, 'subscriptions'), 'utf8')).toBe('V\t2\n\n' + SEED_FOLDERS.map((f) => f.replace('/', '\t') + '\n').join(''));
  });

  it('names files with a valid info suffix, S= size, and mtime = Date header', () => {
    for (const p of parsed) {
      const m = FILE_RE.exec(p.name);
      expect(m, p.name).not.toBeNull();
      const st = statSync(p.path);
      expect(Number(m![3])).toBe(st.size);
      expect(st.mtimeMs).toBe(p.mail.date!.getTime());
      expect(Number(m![1]) * 1000).toBe(p.mail.date!.getTime());
      expect(p.mail.date!.getTime()).toBeLessThan(NOW.getTime());
      expect(p.mail.date!.getTime()).toBeGreaterThan(NOW.getTime() - 800 * 86400_000);
      const flags = m![4]!;
      expect(flags.includes('D')).toBe(p.folder === 'Drafts');
    }
  });

  it('decodes non-ASCII subjects and display names correctly', () => {
    const known = new Set([...PEOPLE, ...NEWSLETTERS, ...SPAMMERS, OWNER, OTHER].map((x) => x.name));
    const templates = ALL_SUBJECT_TEMPLATES.map(
      (t) => new RegExp('^' + t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[a-z]\\\}/g, '.+') + '$', 'u'),
    );
    let nonAsciiSubjects = 0;
    let nonAsciiNames = 0;
    for (const p of parsed.slice(0, 200)) {
      const subject = p.mail.subject ?? '';
      const base = subject.startsWith('Re: ') ? subject.slice(4) : subject;
      expect(templates.some((re) => re.test(base)), subject).toBe(true);
      if (/[^\x00-\x7f]/.test(subject)) nonAsciiSubjects++;
      for (const a of [...addrs(p.mail.from), ...addrs(p.mail.to), ...addrs(p.mail.cc)]) {
        expect(known.has(a.name), a.name).toBe(true);
        if (/[^\x00-\x7f]/.test(a.name)) nonAsciiNames++;
      }
    }
    expect(nonAsciiSubjects).toBeGreaterThan(10);
    expect(nonAsciiNames).toBeGreaterThan(50);
    const all = parsed.map((p) => p.mail.subject ?? '');
    expect(all.some((s) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(s))).toBe(true); // Japanese
    expect(all.some((s) => /[\u0400-\u04ff]/.test(s))).toBe(true); // Cyrillic
    expect(all.some((s) => /\p{Extended_Pictographic}/u.test(s))).toBe(true); // emoji
  });

  it('has unique Message-IDs and In-Reply-To / References that resolve within the seed', () => {
    const ids = new Set<string>();
    for (const p of parsed) {
      expect(p.mail.messageId).toMatch(/^<[^<>\s]+@[^<>\s]+>$/);
      expect(ids.has(p.mail.messageId!)).toBe(false);
      ids.add(p.mail.messageId!);
    }
    let replies = 0;
    for (const p of parsed) {
      if (!p.mail.inReplyTo) continue;
      replies++;
      expect(ids.has(p.mail.inReplyTo)).toBe(true);
      const refs = refsOf(p.mail);
      expect(refs[refs.length - 1]).toBe(p.mail.inReplyTo);
      for (const r of refs) expect(ids.has(r)).toBe(true);
    }
    expect(replies).toBeGreaterThan(COUNT / 3);
    expect(parsed.some((p) => refsOf(p.mail).length >= 3)).toBe(true);
  });

  it('files the owner\'s replies in Sent and marks the replied-to mail \\Answered', () => {
    const byId = new Map(parsed.map((p) => [p.mail.messageId!, p]));
    const sent = parsed.filter((p) => p.folder === 'Sent');
    for (const p of sent) expect(addrs(p.mail.from)[0]?.address).toBe(OWNER.email);
    const sentReplies = sent.filter((p) => p.mail.inReplyTo);
    expect(sentReplies.length).toBeGreaterThan(20);
    for (const p of sentReplies) {
      const parent = byId.get(p.mail.inReplyTo!)!;
      expect(p.mail.subject).toBe('Re: ' + (parent.mail.subject ?? '').replace(/^Re: /, ''));
      if (addrs(parent.mail.from)[0]?.address !== OWNER.email) expect(parent.name).toMatch(/:2,\w*R/);
    }
    // Other local accounts show up as correspondents.
    expect(parsed.some((p) => addrs(p.mail.from)[0]?.address === OTHER.email)).toBe(true);
  });

  it('includes an inline cid: image referenced from the HTML, plus PDF and PNG attachments', () => {
    const withCid = parsed.filter((p) => typeof p.mail.html === 'string' && p.mail.html.includes('src="cid:'));
    expect(withCid.length).toBeGreaterThan(0);
    for (const p of withCid) {
      const cid = /src="cid:([^"]+)"/.exec(p.mail.html as string)![1];
      const img = p.mail.attachments.find((a) => a.contentId === '<' + cid + '>');
      expect(img, p.name).toBeDefined();
      expect(img!.contentDisposition).toBe('inline');
      expect(img!.contentType).toBe('image/png');
      expect(img!.size).toBeGreaterThan(512);
    }
    const atts = parsed.flatMap((p) => p.mail.attachments.filter((a) => a.contentDisposition === 'attachment'));
    const pdf = atts.find((a) => a.contentType === 'application/pdf');
    const png = atts.find((a) => a.contentType === 'image/png');
    expect(pdf?.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(png?.content.subarray(1, 4).toString('latin1')).toBe('PNG');
    const names = new Set(atts.map((a) => a.filename));
    expect([...names].some((n) => n === '見積書.pdf' || n === 'Angebot_Müller.pdf' || n === 'Bildschirmfoto 2026-03-02 um 10.15.42.png')).toBe(true);
  });

  it('puts an inline cid: image even in small seeds, and handles count 0', () => {
    const small = tempDir();
    seedMailbox({ maildir: small, owner: OWNER, count: 20 });
    const raw = listMaildir(small).map((f) => readFileSync(f.path, 'latin1'));
    expect(raw).toHaveLength(20);
    expect(raw.some((r) => r.includes('src=3D"cid:') && r.includes('Content-ID: <'))).toBe(true);
    const empty = tempDir();
    expect(seedMailbox({ maildir: empty, owner: OWNER, count: 0 }).messages).toBe(0);
    expect(listMaildir(empty)).toHaveLength(0);
  });
});

describe('mime encoding', () => {
  it('round-trips long non-ASCII subjects and names through encoded-words and folding', async () => {
    const subject = '【重要】来月のシステムメンテナンスに関するお知らせと作業スケジュールのご確認のお願い 🚀✈️ Grüße aus München';
    const from = { name: 'Björk Guðmundsdóttir-Łukasiewicz Żółć', email: 'b@example.test' };
    const text = 'Zoë says: a=b; trailing space \nline two ' + 'é'.repeat(120) + '\n';
    const msg = buildMessage(
      { messageId: 'x1@example.test', date: 1_780_000_000, tz: 330, from, to: [{ name: 'Smith, John', email: 'j@example.test' }], subject },
      multipartEntity('alternative', '=_b1', [plainEntity(text), htmlEntity('<p>' + 'ü'.repeat(300) + '</p>\n')]),
    );
    const head = msg.slice(0, msg.indexOf('\n\n'));
    for (const line of head.split('\n')) expect(line.length, line).toBeLessThanOrEqual(78);
    for (const w of encodeWords(subject)) expect(w.length).toBeLessThanOrEqual(75);
    const mail = await simpleParser(msg);
    expect(mail.subject).toBe(subject);
    expect(addrs(mail.from)[0]).toMatchObject({ name: from.name, address: from.email });
    expect(addrs(mail.to)[0]?.name).toBe('Smith, John');
    expect(mail.text?.replace(/\n$/, '')).toBe(text.replace(/\n$/, ''));
    expect(mail.html).toContain('ü'.repeat(300));
    expect(mail.date?.getTime()).toBe(1_780_000_000_000);
  });

  it('keeps quoted-printable lines within 76 characters', () => {
    const qp = quotedPrintable('x'.repeat(500) + ' = ünïcødé ' + '漢字'.repeat(100) + '\n');
    for (const line of qp.split('\n')) expect(line.length).toBeLessThanOrEqual(76);
  });
});

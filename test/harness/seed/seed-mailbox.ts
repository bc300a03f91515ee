// Deterministic Maildir seeder: fills a Dovecot Maildir++ tree with realistic
// threaded mail (see threads.ts for who/when/where, bodies.ts for text,
// mime.ts for encoding, maildir.ts for the files). Same seed + same `now` =>
// byte-identical tree, so tests and benchmarks can rely on exact contents.

import { CSV_BUDGET, PDF_INVOICE, PNG_CHART, PNG_LOGO, type Asset } from './assets';
import { CID_MARK, cidImg, conversationText, newsletterText, spamHtml, type ConvText } from './bodies';
import { NEWSLETTERS, PEOPLE, SPAMMERS, conversationSubject, newsletterSubject, spamSubject, type Lang, type Person } from './corpus';
import { MaildirWriter } from './maildir';
import { assetEntity, buildMessage, fold, formatDate, htmlEntity, multipartEntity, plainEntity, type Entity, type MessageHead } from './mime';
import { Prng, weightedPicker } from './prng';
import { pickKind, planConversation, planSingle, type PlanContext, type PlannedMsg, type ThreadPlan } from './threads';

export interface SeedOwner {
  name: string;
  email: string;
}

export interface SeedOptions {
  /** The user's Maildir root. */
  maildir: string;
  owner: SeedOwner;
  /** Total messages to write across all folders. */
  count: number;
  /** Default 1; same seed + same now => byte-identical output. */
  seed?: number;
  /** Default 2026-11-01T09:00:00Z; every message is dated before it. */
  now?: Date;
  /** Other local users (e.g. the second demo account) who sometimes appear as correspondents. */
  otherAccounts?: SeedOwner[];
  /**
   * Every message in this one folder instead of spread over SEED_FOLDERS (the other folders
   * stay, empty): a provider's single big INBOX, as issue 13's side-by-side measures it.
   * The same threads, dates and flags as the spread mailbox of the same seed.
   */
  singleFolder?: (typeof SEED_FOLDERS)[number];
}

export interface SeedSummary {
  messages: number;
  threads: number;
  byFolder: Record<string, number>;
  bytes: number;
  ms: number;
}

/** Every folder the seeder creates and subscribes (special-use names match the harness config). */
export const SEED_FOLDERS = ['INBOX', 'Drafts', 'Sent', 'Archive', 'Junk', 'Trash', 'Newsletters', 'Projects', 'Projects/2026'] as const;

export const DEFAULT_NOW = new Date('2026-11-01T09:00:00Z');

type BodyKind = 'plain' | 'alt' | 'html' | 'attach';
type AttachKind = 'pdf' | 'png' | 'pdf+png' | 'csv' | 'cid';

// Mix over all mail ≈ 40% plain, 30% alternative, 15% HTML-only, 15% attachments
// (newsletters and spam add to the HTML-only share).
const pickBody = weightedPicker<BodyKind>([['plain', 44], ['alt', 30], ['html', 9], ['attach', 17]]);
const pickAttach = weightedPicker<AttachKind>([['pdf', 35], ['png', 25], ['pdf+png', 10], ['csv', 12], ['cid', 18]]);
const PDF_NAMES = ['invoice-2026-0042.pdf', 'Angebot_Müller.pdf', '見積書.pdf', 'Q3 report (final).pdf', 'contract_v2.pdf'];
const PNG_NAMES = ['q3-chart.png', 'Bildschirmfoto 2026-03-02 um 10.15.42.png', 'screenshot.png', 'diagram.png'];

function toPerson(o: SeedOwner, tz: number): Person {
  return { name: o.name, email: o.email, first: o.name.split(' ')[0] || o.email, lang: 'en', tz };
}

function domainOf(email: string): string {
  return email.slice(email.indexOf('@') + 1);
}

export function seedMailbox(opts: SeedOptions): SeedSummary {
  const started = performance.now();
  const count = Math.max(0, Math.floor(opts.count));
  const seed = opts.seed ?? 1;
  const nowSec = Math.floor((opts.now ?? DEFAULT_NOW).getTime() / 1000);
  const rng = new Prng(seed);
  const owner = toPerson(opts.owner, 60);
  const ctx: PlanContext = { rng, owner, otherAccounts: (opts.otherAccounts ?? []).map((o) => toPerson(o, 60)), nowSec };
  const writer = new MaildirWriter(opts.maildir, String(seed >>> 0));
  const byFolder: Record<string, number> = {};
  for (const f of SEED_FOLDERS) {
    writer.ensureFolder(f);
    byFolder[f] = 0;
  }

  let seq = 0;
  let threads = 0;
  let bytes = 0;
  let needCid = true; // the first conversation's root always carries an inline cid: image

  while (seq < count) {
    const remaining = count - seq;
    const kind = threads === 0 ? 'conversation' : pickKind(rng);
    let plan: ThreadPlan;
    let subject: string;
    let lang: Lang = 'en';
    if (kind === 'conversation') {
      plan = planConversation(ctx, remaining, threads === 0);
      const primary = plan.others[0] as Person;
      lang = primary.lang !== 'en' && rng.chance(0.7) ? primary.lang : 'en';
      subject = conversationSubject(rng, lang);
    } else if (kind === 'newsletter') {
      plan = planSingle(ctx, kind, rng.pick(NEWSLETTERS));
      subject = newsletterSubject(rng);
    } else if (kind === 'spam') {
      plan = planSingle(ctx, kind, rng.pick(SPAMMERS));
      subject = spamSubject(rng);
    } else {
      plan = planSingle(ctx, kind, rng.pick(ctx.otherAccounts.length && rng.chance(0.3) ? ctx.otherAccounts : PEOPLE));
      subject = conversationSubject(rng, 'en');
    }
    threads++;

    const ids: string[] = [];
    const refs: string[][] = [];
    const texts: string[] = [];
    plan.msgs.forEach((m) => {
      const id = rng.hex(16) + '.' + seq.toString(36) + '@' + domainOf(m.from.email);
      const parent = m.parent;
      const pid = ids[parent];
      // References: the parent's References + the parent (RFC 5322 3.6.4), capped like MUAs do.
      const r = pid ? [...(refs[parent] ?? []), pid].slice(-12) : [];
      ids.push(id);
      refs.push(r);
      const head: MessageHead = {
        messageId: id,
        date: m.date,
        tz: m.from.tz,
        from: m.from,
        to: m.to,
        cc: m.cc,
        subject: pid ? 'Re: ' + subject : subject,
      };
      if (pid) {
        head.inReplyTo = pid;
        head.references = r;
      }
      if (!m.byOwner) head.deliveredTo = owner.email;
      else head.extra = 'User-Agent: Tern Mail/0.1\n';

      let body: Entity;
      if (plan.kind === 'newsletter') body = newsletterBody(rng, m, subject, head, seq);
      else if (plan.kind === 'spam') body = spamBody(rng, subject, head);
      else {
        const pm = plan.msgs[parent];
        const text = conversationText(rng, {
          lang,
          toFirst: (m.to[0] as Person).first,
          fromName: m.from.name,
          quote: pm ? { attribution: 'On ' + formatDate(pm.date, pm.from.tz) + ', ' + pm.from.name + ' <' + pm.from.email + '> wrote:', text: texts[parent] ?? '' } : undefined,
        });
        texts.push(text.plain);
        const forceCid = needCid && !m.byOwner;
        if (forceCid) needCid = false;
        body = conversationBody(rng, text, forceCid, seq);
      }
      const message = buildMessage(head, body);
      const folder = opts.singleFolder ?? m.folder;
      const w = writer.write(folder, m.date, seq, message, m.flags);
      bytes += w.bytes;
      byFolder[folder] = (byFolder[folder] ?? 0) + 1;
      seq++;
    });
  }

  writer.writeSubscriptions(SEED_FOLDERS);
  return { messages: seq, threads, byFolder, bytes, ms: Math.round(performance.now() - started) };
}

function boundary(rng: Prng, seq: number, depth: number): string {
  // "=_" can't occur in quoted-printable or base64 output, so the boundary can't collide with content.
  return '=_tern_' + seq.toString(36) + '_' + depth + '_' + rng.hex(8);
}

function alternative(rng: Prng, seq: number, depth: number, plain: string, html: Entity): Entity {
  return multipartEntity('alternative', boundary(rng, seq, depth), [plainEntity(plain), html]);
}

/** multipart/alternative whose HTML half is multipart/related with the logo as a cid: image. */
function withInlineLogo(rng: Prng, seq: number, depth: number, text: ConvText): Entity {
  const cid = 'logo.' + rng.hex(10) + '@tern.test';
  const html = htmlEntity(text.html.replace(CID_MARK, cidImg(cid)));
  const related = multipartEntity('related', boundary(rng, seq, depth + 1), [html, assetEntity(PNG_LOGO, { cid })], 'text/html');
  return alternative(rng, seq, depth, text.plain, related);
}

function attachment(rng: Prng, asset: Asset, names: readonly string[]): Entity {
  return assetEntity(asset, { filename: rng.pick(names) });
}

function conversationBody(rng: Prng, text: ConvText, forceCid: boolean, seq: number): Entity {
  if (forceCid) {
    return multipartEntity('mixed', boundary(rng, seq, 0), [withInlineLogo(rng, seq, 1, text), assetEntity(PDF_INVOICE)]);
  }
  const kind = pickBody(rng);
  if (kind === 'plain') return plainEntity(text.plain);
  const html = text.html.replace(CID_MARK, '');
  if (kind === 'alt') return alternative(rng, seq, 0, text.plain, htmlEntity(html));
  if (kind === 'html') return htmlEntity(html);
  const a = pickAttach(rng);
  if (a === 'cid') return withInlineLogo(rng, seq, 0, text);
  const parts = [rng.chance(0.5) ? plainEntity(text.plain) : alternative(rng, seq, 1, text.plain, htmlEntity(html))];
  if (a === 'pdf' || a === 'pdf+png') parts.push(attachment(rng, PDF_INVOICE, PDF_NAMES));
  if (a === 'png' || a === 'pdf+png') parts.push(attachment(rng, PNG_CHART, PNG_NAMES));
  if (a === 'csv') parts.push(assetEntity(CSV_BUDGET));
  return multipartEntity('mixed', boundary(rng, seq, 0), parts);
}

function newsletterBody(rng: Prng, m: PlannedMsg, subject: string, head: MessageHead, seq: number): Entity {
  const domain = domainOf(m.from.email);
  const t = newsletterText(rng, m.from.name, domain, subject);
  head.extra =
    'List-Id: <news.' + domain + '>\n' +
    fold('List-Unsubscribe', ['<https://' + domain + '/unsubscribe>,', '<mailto:unsubscribe@' + domain + '>']) +
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click\nPrecedence: bulk\n';
  return rng.chance(0.6) ? htmlEntity(t.html) : alternative(rng, seq, 0, t.plain, htmlEntity(t.html));
}

function spamBody(rng: Prng, subject: string, head: MessageHead): Entity {
  head.extra = 'X-Spam-Flag: YES\nX-Spam-Score: 9.7\n';
  return htmlEntity(spamHtml(rng, subject));
}

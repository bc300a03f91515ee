// Thread planning for the seeder: who writes each message, when, into which
// folder, with which flags. Rendering into MIME happens in seed-mailbox.ts;
// planning a whole thread first is what lets a message carry \Answered when
// the owner's reply comes later in the thread.

import { PEOPLE, type Person } from './corpus';
import type { MailFlags } from './maildir';
import { weightedPicker, type Prng } from './prng';

export type Kind = 'conversation' | 'newsletter' | 'spam' | 'draft';

export interface PlannedMsg {
  from: Person;
  to: Person[];
  cc: Person[];
  /** Unix seconds. */
  date: number;
  folder: string;
  /** Index of the message replied to inside the thread, -1 for the root. */
  parent: number;
  byOwner: boolean;
  flags: MailFlags;
}

export interface ThreadPlan {
  kind: Kind;
  /** Correspondents other than the owner (conversations), or the single sender. */
  others: Person[];
  msgs: PlannedMsg[];
}

export interface PlanContext {
  rng: Prng;
  owner: Person;
  otherAccounts: Person[];
  nowSec: number;
}

const DAY = 86400;
/** Mail is spread over ~2 years before `now`. */
export const SPAN_DAYS = 730;

export const pickKind = weightedPicker<Kind>([
  ['conversation', 81],
  ['newsletter', 14],
  ['spam', 4],
  ['draft', 1],
]);

// Thread lengths 1–8, short threads far more common.
export const pickLength = weightedPicker<number>([[1, 40], [2, 20], [3, 14], [4, 10], [5, 7], [6, 4], [7, 3], [8, 2]]);

const pickInboxRecent = weightedPicker<string>([['INBOX', 75], ['Archive', 10], ['Projects/2026', 13], ['Trash', 2]]);
const pickInboxOld = weightedPicker<string>([['INBOX', 45], ['Archive', 38], ['Projects/2026', 15], ['Trash', 2]]);
const pickNewsFolder = weightedPicker<string>([['Newsletters', 80], ['INBOX', 12], ['Trash', 8]]);

/** Start of a thread: age = span * u², so mail gets denser towards `now`. */
function startTime(ctx: PlanContext, tz: number): number {
  const u = ctx.rng.next();
  let t = ctx.nowSec - Math.floor(SPAN_DAYS * DAY * u * u) - ctx.rng.int(120, 7200);
  // Nudge night-time mail into the sender's working day when that stays in the past.
  const hour = Math.floor((((t + tz * 60) % DAY) + DAY) % DAY / 3600);
  if (hour < 7 && t + 8 * 3600 < ctx.nowSec - 120) t += 8 * 3600;
  return t;
}

/** Reply gap: log-uniform between 3 minutes and 3 days. */
function gap(rng: Prng): number {
  return Math.floor(Math.exp(Math.log(180) + rng.next() * (Math.log(3 * DAY) - Math.log(180))));
}

/** Flags of mail received by the owner: older mail mostly read, recent ~30% unread. */
function incomingFlags(ctx: PlanContext, date: number, readRate: number): MailFlags {
  const age = ctx.nowSec - date;
  const pSeen = age > 30 * DAY ? 0.98 : age > 7 * DAY ? 0.85 : 0.58;
  return { seen: ctx.rng.chance(pSeen * readRate), flagged: ctx.rng.chance(0.06) };
}

function msg(from: Person, to: Person[], cc: Person[], date: number, folder: string, parent: number, byOwner: boolean, flags: MailFlags): PlannedMsg {
  return { from, to, cc, date, folder, parent, byOwner, flags };
}

/**
 * A conversation of up to `maxLen` messages (fewer if replies would fall after
 * `now`). The owner's messages go to Sent; the parent of each owner reply gets
 * \Answered. `firstIncoming` forces the root to come from a correspondent.
 */
export function planConversation(ctx: PlanContext, maxLen: number, firstIncoming: boolean): ThreadPlan {
  const { rng, owner } = ctx;
  const nOthers = rng.weighted([[1, 70], [2, 20], [3, 10]] as const);
  const others = rng.sample(PEOPLE, nOthers);
  if (ctx.otherAccounts.length && rng.chance(0.12)) others[0] = rng.pick(ctx.otherAccounts);
  const primary = others[0] as Person;
  const ownerStarts = !firstIncoming && rng.chance(0.2);
  const len = Math.min(maxLen, pickLength(rng));
  let t = startTime(ctx, ownerStarts ? owner.tz : primary.tz);
  const inFolder = (ctx.nowSec - t > 60 * DAY ? pickInboxOld : pickInboxRecent)(rng);
  const msgs: PlannedMsg[] = [];

  for (let i = 0; i < len; i++) {
    if (i > 0) {
      t += gap(rng);
      if (t > ctx.nowSec - 60) break;
    }
    let from: Person;
    const prev = msgs[i - 1];
    if (!prev) from = ownerStarts ? owner : primary;
    else if (prev.byOwner) from = others.length > 1 && rng.chance(0.3) ? rng.pick(others) : primary;
    else if (rng.chance(0.65)) from = owner;
    else from = others.length > 1 ? rng.pick(others) : prev.from; // a colleague chimes in, or a follow-up
    const byOwner = from === owner;
    const parent = i === 0 ? -1 : i >= 2 && rng.chance(0.1) ? rng.int(0, i - 2) : i - 1;
    const parentMsg = msgs[parent];
    let to: Person[];
    let cc: Person[];
    if (byOwner) {
      const main = parentMsg && !parentMsg.byOwner ? parentMsg.from : primary;
      to = [main];
      cc = others.filter((o) => o !== main);
    } else {
      to = [owner];
      cc = others.filter((o) => o !== from);
    }
    const folder = byOwner ? 'Sent' : rng.chance(0.02) ? 'Trash' : inFolder;
    const flags: MailFlags = byOwner ? { seen: true, flagged: rng.chance(0.03) } : incomingFlags(ctx, t, 1);
    if (byOwner && parentMsg && !parentMsg.byOwner) {
      parentMsg.flags.answered = true;
      parentMsg.flags.seen = true;
    }
    msgs.push(msg(from, to, cc, t, folder, parent, byOwner, flags));
  }

  // Sometimes the owner has an unsent reply sitting in Drafts.
  const last = msgs[msgs.length - 1];
  if (last && !last.byOwner && msgs.length < maxLen && rng.chance(0.03)) {
    const d = last.date + gap(rng);
    if (d < ctx.nowSec - 60) {
      msgs.push(msg(owner, [last.from], [], d, 'Drafts', msgs.length - 1, true, { draft: true, seen: true }));
    }
  }
  return { kind: 'conversation', others, msgs };
}

/** A single message: newsletter, spam or a fresh draft. */
export function planSingle(ctx: PlanContext, kind: Exclude<Kind, 'conversation'>, sender: Person): ThreadPlan {
  const { rng, owner } = ctx;
  const t = startTime(ctx, sender.tz);
  let m: PlannedMsg;
  if (kind === 'newsletter') {
    const folder = pickNewsFolder(rng);
    m = msg(sender, [owner], [], t, folder, -1, false, folder === 'Trash' ? { seen: true } : incomingFlags(ctx, t, 0.75));
    m.flags.flagged = rng.chance(0.01);
  } else if (kind === 'spam') {
    const folder = rng.chance(0.9) ? 'Junk' : 'Trash';
    m = msg(sender, [owner], [], t, folder, -1, false, { seen: folder === 'Trash' || rng.chance(0.2) });
  } else {
    m = msg(owner, [sender], [], t, 'Drafts', -1, true, { draft: true, seen: true });
  }
  return { kind, others: [sender], msgs: [m] };
}

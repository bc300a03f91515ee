/**
 * The priority inbox's scorer (issue 17 point 4, next-features §14): a pure function from
 * the signals people trust to a score, a verdict and the reasons for it, used by the engine
 * (and by the gateway, should it score too). Transparent rules first — you reply to this
 * sender, you are in To rather than Cc, the thread has your replies, the sender's contact
 * rank, the spec's likely-non-human address, List-Id / bulk mail — as the features of a
 * small logistic model whose weights start at those rules and learn from "Mark important /
 * not important" (one SGD step each, `learnPriority`), stored per account. The verdict
 * roams as the keyword $Important (RFC 8457); it only orders and sections mail, never hides it.
 *
 * The engine scores new Inbox mail with it (src-worker/priority/), the UI shows the reasons.
 */
import * as z from 'zod';
import { isLikelyNonHumanAddress } from './address-kind';

/** The keyword the verdict is stored as on the mail server (RFC 8457). */
export const IMPORTANT_KEYWORD = '$Important';

/** Whether a keyword is $Important (IMAP compares keywords case aside: another program may write `$important`). */
export const isImportantKeyword = (keyword: string) => keyword.toLowerCase() === '$important';

/** Whether a message's or a thread's keywords make it important. */
export const hasImportantKeyword = (keywords: readonly string[] | undefined) => keywords?.some(isImportantKeyword) ?? false;

export const PRIORITY_SIGNALS = ['repliesToSender', 'directlyToYou', 'yourThread', 'knownContact', 'notAPerson', 'bulkMail'] as const;
export type PrioritySignal = (typeof PRIORITY_SIGNALS)[number];

/** What the engine knows of one message, gathered from its cache. */
export interface PriorityInput {
  readonly from: string;
  /** Whether one of your addresses is in To (else only in Cc or Bcc). */
  readonly toYou: boolean;
  /** Share of this sender's messages you replied to (0–1); 0 when none came before. */
  readonly senderReplyRate: number;
  /** Whether the conversation has a message you wrote. */
  readonly threadHasYourReply: boolean;
  /** The sender's compose rank (shared/contact-rank.ts), decayed; 0 for a stranger. */
  readonly contactRank: number;
  /** A List-Id header, or Precedence: bulk/list. */
  readonly bulk: boolean;
}

/** A per-account model: a weight per signal and a bias (logistic regression). */
export interface PriorityModel {
  readonly weights: Readonly<Record<PrioritySignal, number>>;
  readonly bias: number;
  /** How many marks it learned from. */
  readonly trained: number;
}

const weight = z.number().finite().min(-50).max(50);
/** A model as a preference stores it (shared/preferences.ts `priorityModel`): bounded, so a bad value cannot poison scoring. */
export const priorityModelSchema = z.object({
  weights: z.object(Object.fromEntries(PRIORITY_SIGNALS.map((signal) => [signal, weight])) as Record<PrioritySignal, typeof weight>),
  bias: weight,
  trained: z.number().int().nonnegative(),
});

/** The rules as weights: a cold start, before any mark (the §14 pitfall: fall back to the rules). */
export const DEFAULT_PRIORITY_MODEL: PriorityModel = {
  weights: { repliesToSender: 2.5, directlyToYou: 1, yourThread: 2, knownContact: 1.5, notAPerson: -2.5, bulkMail: -3 },
  bias: -1.5,
  trained: 0,
};

/** The score above which a message is important. */
export const IMPORTANT_THRESHOLD = 0.5;

/** Each signal's value in 0–1 (rank: log-scaled, a few exchanges make a known contact). */
export function prioritySignals(input: PriorityInput): Record<PrioritySignal, number> {
  return {
    repliesToSender: Math.min(1, Math.max(0, input.senderReplyRate)),
    directlyToYou: input.toYou ? 1 : 0,
    yourThread: input.threadHasYourReply ? 1 : 0,
    knownContact: Math.min(1, Math.log1p(Math.max(0, input.contactRank)) / Math.log1p(5)),
    notAPerson: isLikelyNonHumanAddress(input.from) ? 1 : 0,
    bulkMail: input.bulk ? 1 : 0,
  };
}

export interface PriorityVerdict {
  /** 0–1. */
  readonly score: number;
  readonly important: boolean;
  /** "Why is this important": the signals that pushed most, strongest first (up to three, the verdict's way). */
  readonly reasons: readonly PrioritySignal[];
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export function scorePriority(input: PriorityInput, model: PriorityModel = DEFAULT_PRIORITY_MODEL): PriorityVerdict {
  const signals = prioritySignals(input);
  const contributions = PRIORITY_SIGNALS.map((signal) => ({ signal, value: signals[signal] * model.weights[signal] }));
  const score = sigmoid(model.bias + contributions.reduce((sum, { value }) => sum + value, 0));
  const important = score >= IMPORTANT_THRESHOLD;
  return { score, important, reasons: sideOf(contributions, important) };
}

/** The signals pushing toward `important` (up) or away from it (down), strongest first, up to three. */
function sideOf(contributions: readonly { signal: PrioritySignal; value: number }[], important: boolean): PrioritySignal[] {
  return contributions
    .filter(({ value }) => (important ? value > 0 : value < 0))
    .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
    .slice(0, 3)
    .map(({ signal }) => signal);
}

/**
 * The reasons for a verdict that may not be the scorer's — a message marked important (by the
 * person or another program) the model would not call so: what speaks for that side.
 */
export function priorityReasons(input: PriorityInput, important: boolean, model: PriorityModel = DEFAULT_PRIORITY_MODEL): PrioritySignal[] {
  const signals = prioritySignals(input);
  return sideOf(PRIORITY_SIGNALS.map((signal) => ({ signal, value: signals[signal] * model.weights[signal] })), important);
}

/**
 * One step of learning from "Mark important" (`important`: true) or "not important": the
 * weights move so this message scores nearer the person's verdict (logistic loss, SGD).
 */
export function learnPriority(model: PriorityModel, input: PriorityInput, important: boolean, rate = 0.5): PriorityModel {
  const signals = prioritySignals(input);
  const error = (important ? 1 : 0) - scorePriority(input, model).score;
  const weights = Object.fromEntries(PRIORITY_SIGNALS.map((signal) => [signal, model.weights[signal] + rate * error * signals[signal]])) as Record<PrioritySignal, number>;
  return { weights, bias: model.bias + rate * error, trained: model.trained + 1 };
}

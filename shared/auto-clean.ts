/**
 * Auto-clean rules (issue 17 point 3): "newsletters older than 30 days → Trash", "from X
 * older than a week → Archive". Run by the gateway on a schedule (src-server/auto-clean/),
 * previewed before they are enabled. The rule's checks live here, so the gateway refuses
 * and the Settings page explains with the same words (AutoCleanRuleInvalid, one problem per
 * field).
 */
import * as z from 'zod';

export const AUTO_CLEAN_LIMITS = {
  /** "Older than" at most ten years: more is a typo, not a rule. */
  maxAgeDays: 3650,
  /** The newest messages of a conversation kept at most. */
  maxKeepNewest: 20,
  /** Rules per account. */
  perAccount: 20,
  /** A preview or run that would move more than this asks for confirmation. */
  confirmOver: 500,
  /** Subjects a preview shows. */
  sample: 10,
  /** Messages one run moves at most (the next run goes on). */
  perRun: 2000,
} as const;

export const AUTO_CLEAN_ACTIONS = ['trash', 'archive'] as const;
export type AutoCleanAction = (typeof AUTO_CLEAN_ACTIONS)[number];

/** What a person types for "from": an address (news@shop.example) or a domain (shop.example, @shop.example). */
const SENDER = /^(?:[^\s@<>()",;:]+@)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** The sender as the rule keeps it: lower case, a domain without its leading @. Null: not an address or domain. */
export function normalSender(value: string): string | null {
  const trimmed = value.trim().toLowerCase().replace(/^@/, '');
  return trimmed.length <= 254 && SENDER.test(trimmed) ? trimmed : null;
}

/** Whether an address (from a message's From) is the rule's sender: the address itself, or any address at the domain or its subdomains. */
export function senderMatches(sender: string, address: string): boolean {
  const email = address.trim().toLowerCase();
  if (sender.includes('@')) return email === sender;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return domain === sender || domain.endsWith(`.${sender}`);
}

/** A rule as typed (POST/PUT /api/auto-clean/rules); checked by `ruleProblems`, not by the schema, so each field gets a sentence. */
export const autoCleanInputSchema = z.object({
  name: z.string().max(1000),
  /** An address or domain; empty for none. */
  sender: z.string().max(1000),
  /** Mail with List-Id or List-Unsubscribe (RFC 2919, 2369). */
  newsletters: z.boolean(),
  /** The mirror's folder id; null: the Inbox. */
  folderId: z.string().max(20).nullable(),
  ageDays: z.number(),
  action: z.enum(AUTO_CLEAN_ACTIONS),
  keepNewest: z.number(),
  enabled: z.boolean(),
  /** The person said yes to a rule that would touch everything (AutoCleanConfirmRequired). */
  confirmed: z.boolean().optional(),
});
export type AutoCleanInput = z.infer<typeof autoCleanInputSchema>;

export type AutoCleanField = 'name' | 'sender' | 'folderId' | 'action' | 'ageDays' | 'keepNewest';
/** One refused field and why (the detail of AutoCleanRuleInvalid). */
export interface FieldProblem {
  readonly field: AutoCleanField;
  /** Which check refused it (the Settings page says it in the reader's language). */
  readonly reason: FieldReason;
  /** The sentence in English (for the API and the log). */
  readonly message: string;
}

export const FIELD_REASONS = ['nameLong', 'senderInvalid', 'ageInvalid', 'keepInvalid', 'folderMissing', 'folderRefused', 'folderIsTarget', 'noArchive', 'noTrash'] as const;
export type FieldReason = (typeof FIELD_REASONS)[number];

/** The English sentence of each refusal (the gateway's answer; strings/autoClean.ts has the page's in every language). */
export const FIELD_MESSAGES: Readonly<Record<FieldReason, string>> = {
  nameLong: 'A name has at most 80 characters.',
  senderInvalid: 'Enter an email address (news@shop.example) or a domain (shop.example).',
  ageInvalid: `Enter a whole number of days from 1 to ${AUTO_CLEAN_LIMITS.maxAgeDays}.`,
  keepInvalid: `Enter a whole number from 0 to ${AUTO_CLEAN_LIMITS.maxKeepNewest}.`,
  folderMissing: 'This folder does not exist.',
  folderRefused: 'Auto-clean never takes mail from Sent, Drafts, Trash or Spam.',
  folderIsTarget: 'This folder is where the rule puts mail: choose another.',
  noArchive: 'This account has no Archive folder.',
  noTrash: 'This account has no Trash folder.',
};

export const fieldProblem = (field: AutoCleanField, reason: FieldReason): FieldProblem => ({ field, reason, message: FIELD_MESSAGES[reason] });

/** What is wrong with a rule as typed, field by field (empty: nothing). The folder is checked by the gateway, which knows the folders. */
export function ruleProblems(input: AutoCleanInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (input.name.trim().length > 80) problems.push(fieldProblem('name', 'nameLong'));
  if (input.sender.trim() !== '' && normalSender(input.sender) === null) problems.push(fieldProblem('sender', 'senderInvalid'));
  if (!Number.isInteger(input.ageDays) || input.ageDays < 1 || input.ageDays > AUTO_CLEAN_LIMITS.maxAgeDays) problems.push(fieldProblem('ageDays', 'ageInvalid'));
  if (!Number.isInteger(input.keepNewest) || input.keepNewest < 0 || input.keepNewest > AUTO_CLEAN_LIMITS.maxKeepNewest) problems.push(fieldProblem('keepNewest', 'keepInvalid'));
  return problems;
}

/** A rule with neither a sender nor "newsletters" picks every old message of its folder. */
export const isBroad = (rule: { sender: string; newsletters: boolean }): boolean => rule.sender.trim() === '' && !rule.newsletters;

/** Whether a rule would touch everything: broad, or its preview takes over the threshold or the whole (non-empty) folder. */
export function touchesEverything(rule: { sender: string; newsletters: boolean }, preview: { count: number; folderTotal: number } | null): boolean {
  if (isBroad(rule)) return true;
  if (!preview) return false;
  return preview.count > AUTO_CLEAN_LIMITS.confirmOver || (preview.count > 0 && preview.count >= preview.folderTotal);
}

export const autoCleanRuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  sender: z.string(),
  newsletters: z.boolean(),
  folderId: z.string().nullable(),
  /** The folder's path when the rule was saved (shown if the folder is gone). */
  folderPath: z.string(),
  ageDays: z.number(),
  action: z.enum(AUTO_CLEAN_ACTIONS),
  keepNewest: z.number(),
  enabled: z.boolean(),
  /** The person confirmed a rule that touches everything. */
  confirmed: z.boolean(),
  lastRunAt: z.number().nullable(),
});
export type AutoCleanRule = z.infer<typeof autoCleanRuleSchema>;

/** A dry run: what the rule would move now. */
export const autoCleanPreviewSchema = z.object({
  count: z.number(),
  /** Messages in the folder (the preview takes all of them: confirm). */
  folderTotal: z.number(),
  folderPath: z.string(),
  /** Kept although they match: starred, or among the newest of their conversation. */
  kept: z.object({ starred: z.number(), newest: z.number() }),
  /** Some subjects of what would move. */
  sample: z.array(z.object({ uid: z.number(), subject: z.string(), from: z.string(), date: z.number() })),
  /** Every UID that would move, ascending (what a run then moves, if nothing changed meanwhile). */
  uids: z.array(z.number()),
  /** The rule would touch everything: saving it enabled, or running it, needs `confirmed`. */
  needsConfirmation: z.boolean(),
});
export type AutoCleanPreview = z.infer<typeof autoCleanPreviewSchema>;

/** One run of a rule, with what it moved and whether it was undone. */
export const autoCleanRunSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  at: z.number(),
  /** 'schedule' (the gateway's hourly job) or 'manual' (Run now). */
  trigger: z.enum(['schedule', 'manual']),
  fromPath: z.string(),
  toPath: z.string(),
  count: z.number(),
  subjects: z.array(z.string()),
  /** A run that did not move anything because it needs confirmation, or failed. */
  error: z.string().nullable(),
  undoneAt: z.number().nullable(),
  /** Messages undo put back, and those it could not (deleted from Trash since). */
  restored: z.number(),
  lost: z.number(),
});
export type AutoCleanRun = z.infer<typeof autoCleanRunSchema>;

export const autoCleanDocSchema = z.object({
  rules: z.array(autoCleanRuleSchema),
  runs: z.array(autoCleanRunSchema),
});
export type AutoCleanDoc = z.infer<typeof autoCleanDocSchema>;

/** The name a rule without one is shown by. */
export function ruleTitle(rule: Pick<AutoCleanRule, 'name' | 'sender' | 'newsletters' | 'ageDays'>): string {
  if (rule.name.trim()) return rule.name.trim();
  const what = [rule.newsletters ? 'Newsletters' : '', rule.sender ? `from ${rule.sender}` : ''].filter(Boolean).join(' ') || 'All mail';
  return `${what}, older than ${rule.ageDays} days`;
}

/**
 * Mail rules that run on the mail server (issue 16): filters, blocked and allowed senders,
 * auto reply, business-hours auto reply and forwarding, as one typed document per account.
 * The gateway keeps the document (its source of truth) and writes it as ONE Sieve script it
 * owns (src-server/sieve/script-writer.ts), uploaded over ManageSieve; a script the person
 * already had is included, never overwritten.
 *
 * Reading is forgiving (a stored document this build does not know reads as the empty rules);
 * writing is strict (zod here, then the gateway's checks: folders exist, date ranges run forwards).
 */
import * as z from 'zod';
import { isValidEmail } from './email-rule';
import { keywordSchema } from './labels';

/** Text a condition compares; Sieve's :contains / :is, or the negation of :contains. */
export const MATCH_OPS = ['contains', 'is', 'notContains'] as const;
export type MatchOp = (typeof MATCH_OPS)[number];

/** A header field name (RFC 5322 ftext: printable ASCII but the colon). */
const headerNameSchema = z.string().regex(/^[\x21-\x39\x3b-\x7e]{1,76}$/, 'Not a header field name');
/** One short line a condition looks for. */
const needleSchema = z.string().min(1).max(500).regex(/^[^\r\n\0]*$/, 'One line only');
/** A filter's label action stores the label's keyword, the same model as labels applied by hand. */
export { keywordSchema };
/** A folder's full IMAP path, as the folder list names it. */
const folderPathSchema = z.string().min(1).max(1000).regex(/^[^\r\n\0]*$/);
export const ruleAddressSchema = z.string().trim().toLowerCase().refine(isValidEmail, 'Not an email address');

export const ruleConditionSchema = z.discriminatedUnion('field', [
  z.object({ field: z.literal('from'), op: z.enum(MATCH_OPS), value: needleSchema }),
  /** To or Cc. */
  z.object({ field: z.literal('toCc'), op: z.enum(MATCH_OPS), value: needleSchema }),
  z.object({ field: z.literal('subject'), op: z.enum(MATCH_OPS), value: needleSchema }),
  z.object({ field: z.literal('listId'), op: z.enum(MATCH_OPS), value: needleSchema }),
  z.object({ field: z.literal('header'), name: headerNameSchema, op: z.enum(MATCH_OPS), value: needleSchema }),
  z.object({ field: z.literal('size'), op: z.enum(['over', 'under']), kilobytes: z.number().int().min(1).max(10_000_000) }),
  z.object({ field: z.literal('hasAttachment') }),
]);
export type RuleCondition = z.infer<typeof ruleConditionSchema>;
export type ConditionField = RuleCondition['field'];

export const ruleActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('move'), folder: folderPathSchema }),
  z.object({ kind: z.literal('markRead') }),
  z.object({ kind: z.literal('star') }),
  z.object({ kind: z.literal('label'), keyword: keywordSchema }),
  /** Forward a copy (redirect :copy): the mail stays here too. */
  z.object({ kind: z.literal('forward'), address: ruleAddressSchema }),
  /** Into Trash (reversible), not discarded. */
  z.object({ kind: z.literal('delete') }),
  /** No later filter looks at the message. */
  z.object({ kind: z.literal('stop') }),
]);
export type RuleAction = z.infer<typeof ruleActionSchema>;
export type ActionKind = RuleAction['kind'];

export const mailFilterSchema = z.object({
  /** Stable across edits and reorders (the UI's key). */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  name: z.string().trim().max(200),
  enabled: z.boolean(),
  /** Every condition must hold, or any one. */
  match: z.enum(['all', 'any']),
  conditions: z.array(ruleConditionSchema).min(1).max(20),
  actions: z.array(ruleActionSchema).min(1).max(20),
});
export type MailFilter = z.infer<typeof mailFilterSchema>;

/** A blocked or allowed sender: a whole address, or a domain (`example.com`, every address there). */
export const senderEntrySchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => isValidEmail(value) || /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(value), 'Not an address or a domain');

export const DAY_SCHEMA = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date like 2026-12-24');

export const autoReplySchema = z.object({
  enabled: z.boolean(),
  subject: z.string().trim().max(200).regex(/^[^\r\n\0]*$/),
  /** Plain text; sent as text and as HTML (vacation :mime). */
  body: z.string().max(20_000),
  /** First and last day it answers (inclusive, the server's calendar day); absent = from now / until turned off. */
  startDate: DAY_SCHEMA.optional(),
  endDate: DAY_SCHEMA.optional(),
  /** One answer per sender at most every N days. */
  days: z.number().int().min(1).max(30),
});
export type AutoReply = z.infer<typeof autoReplySchema>;

/** Working hours; outside them the business-hours auto reply answers (a paid feature). */
export const businessHoursSchema = z.object({
  enabled: z.boolean(),
  /** ISO weekdays that are working days: 1 Monday … 7 Sunday. */
  workDays: z.array(z.number().int().min(1).max(7)).max(7),
  /** "09:00" and "17:00": working from start until end, in timeZone. */
  start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
  /** An IANA zone (Europe/Berlin); Sieve knows only offsets, so the gateway rewrites at each DST change. */
  timeZone: z.string().min(1).max(64),
  subject: z.string().trim().max(200).regex(/^[^\r\n\0]*$/),
  body: z.string().max(20_000),
});
export type BusinessHours = z.infer<typeof businessHoursSchema>;

export const forwardingSchema = z.object({
  enabled: z.boolean(),
  address: z.union([ruleAddressSchema, z.literal('')]),
  /** Keep a copy here (redirect :copy) or only forward. */
  keepCopy: z.boolean(),
});
export type Forwarding = z.infer<typeof forwardingSchema>;

export const MAX_SENDER_ENTRIES = 1000;

export const mailRulesSchema = z.object({
  filters: z.array(mailFilterSchema).max(200),
  blocked: z.array(senderEntrySchema).max(MAX_SENDER_ENTRIES),
  /** What happens to mail from a blocked sender: into Spam (reversible) or thrown away. */
  blockAction: z.enum(['spam', 'discard']),
  allowed: z.array(senderEntrySchema).max(MAX_SENDER_ENTRIES),
  autoReply: autoReplySchema,
  businessHours: businessHoursSchema,
  forwarding: forwardingSchema,
});
export type MailRules = z.infer<typeof mailRulesSchema>;

export const EMPTY_RULES: MailRules = {
  filters: [],
  blocked: [],
  blockAction: 'spam',
  allowed: [],
  autoReply: { enabled: false, subject: '', body: '', days: 4 },
  businessHours: { enabled: false, workDays: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', timeZone: 'UTC', subject: '', body: '' },
  forwarding: { enabled: false, address: '', keepCopy: true },
};

/** Where an account's rules can run. */
export const RULES_AVAILABILITY = ['available', 'unavailable'] as const;

/** GET /api/rules and the answer of PUT /api/rules. */
export const rulesDocSchema = z.object({
  /** 'unavailable': the account's mail server has no ManageSieve; nothing can be saved. */
  availability: z.enum(RULES_AVAILABILITY),
  /** +1 per saved change; 0 before the first. */
  revision: z.number().int().nonnegative(),
  rules: mailRulesSchema,
  /** The name of the person's own active script Tern keeps running (included), if any. */
  keptScript: z.string().nullable(),
  updatedAt: z.number().int().nonnegative(),
});
export type RulesDoc = z.infer<typeof rulesDocSchema>;

/** PUT /api/rules: the whole new rules, and the revision they were edited from (a stale edit is refused). */
export const rulesPutRequestSchema = z.object({ rules: mailRulesSchema, baseRevision: z.number().int().nonnegative() });
export type RulesPutRequest = z.infer<typeof rulesPutRequestSchema>;

/** POST /api/rules/apply: one filter run over the mail already in the Inbox. */
export const rulesApplyRequestSchema = z.object({ filter: mailFilterSchema });

export const RULE_RUN_STATES = ['running', 'done', 'failed'] as const;

/**
 * One "apply to existing mail" run: a gateway job, so it goes on with the page closed or
 * reloaded, and its progress is the account's to see on any device (n of N messages).
 */
export const ruleRunSchema = z.object({
  id: z.number().int().positive(),
  /** The filter it ran (its id, and its name as it was). */
  filterId: z.string(),
  filterName: z.string(),
  state: z.enum(RULE_RUN_STATES),
  /** N: the messages the filter matched (0 until the search has run). */
  total: z.number().int().nonnegative(),
  /** n: the messages done so far. */
  done: z.number().int().nonnegative(),
  /** A failed run's catalogue error name. */
  error: z.string().nullable(),
  startedAt: z.number().int().nonnegative(),
  updatedAt: z.number().int().nonnegative(),
});
export type RuleRun = z.infer<typeof ruleRunSchema>;

/** POST /api/rules/apply's answer: the run, started. */
export const rulesApplyResponseSchema = z.object({ run: ruleRunSchema });

/**
 * What changes about an account's rules without a reload: the rules' revision (a save on any
 * device) and the runs of the last hour (each one's progress). The delta's 'rules' upsert and
 * GET /api/rules/activity.
 */
export const rulesActivitySchema = z.object({ revision: z.number().int().nonnegative(), runs: z.array(ruleRunSchema) });
export type RulesActivity = z.infer<typeof rulesActivitySchema>;

/** POST /api/rules/forwarding-check: the other address whose forwarding to this account is tried. */
export const forwardingCheckRequestSchema = z.object({ address: ruleAddressSchema });
/** Whether the test message sent to that address arrived here, and after how long (or how long was waited). */
export const forwardingCheckResultSchema = z.object({ arrived: z.boolean(), seconds: z.number().int().nonnegative() });
export type ForwardingCheckResult = z.infer<typeof forwardingCheckResultSchema>;

/** Stored rules made whole: what does not parse reads as the empty rules. */
export function readMailRules(raw: unknown): MailRules {
  const parsed = mailRulesSchema.safeParse(raw);
  return parsed.success ? parsed.data : EMPTY_RULES;
}

/** Whether `sender` (an address) is on the list (its address, or its domain). */
export function senderListed(list: readonly string[], sender: string): boolean {
  const address = sender.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return list.includes(address) || list.includes(domain);
}

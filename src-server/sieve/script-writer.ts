/**
 * Writes an account's rules (shared/mail-rules.ts) as one Sieve script (RFC 5228), the
 * script Tern owns. Pure: the same rules, folders and instant give the same text.
 *
 * Order, and why:
 *   1. blocked senders (unless allowed): into Spam or discarded, then stop — no auto reply,
 *      no forwarding, no filter for mail the person never wants to see;
 *   2. the auto reply, else the business-hours one (one `vacation` per run: RFC 5230 §4.7),
 *      never to lists, bulk, Auto-Submitted or likely non-human senders;
 *   3. the filters, in their order;
 *   4. forwarding of everything left;
 *   5. the person's own script, included (RFC 6609), so what they had keeps running.
 *
 * Only extensions Pigeonhole enables by default are used (research §8). `variables` is never
 * required, so "${…}" in a person's text stays literal.
 */
import type { AutoReply, BusinessHours, MailFilter, MailRules, RuleAction, RuleCondition } from '../../shared/mail-rules';

export interface ScriptContext {
  /** The Spam (\Junk) folder's path; blocked mail without one is discarded. */
  readonly spamFolder: string | null;
  /** The Trash folder's path; "delete" without one discards. */
  readonly trashFolder: string | null;
  /** The account's own addresses (vacation :addresses). */
  readonly addresses: readonly string[];
  /** The person's own script to keep running, or null. */
  readonly includeScript: string | null;
  /** For the business-hours zone offset (Sieve zones are fixed offsets). */
  readonly now: Date;
}

export const TERN_SCRIPT_NAME = 'tern-rules';
const HEADER = '# Written by Tern Mail from the rules in its Settings. Edits here are replaced at the next save.';

/** Senders an auto reply never answers (spec §5's likely-non-human patterns, as Sieve globs). */
const NON_HUMAN_LOCAL_PARTS = ['*no-reply*', '*noreply*', '*donotreply*', '*do-not-reply*', '*bounce*', '*notification*', '*notify*', '*support*', '*alert*', '*news*', '*info*', '*automated*', '*mailer-daemon*', '*list*', '*distribute*', '*catch-all*'];

/** A Sieve quoted string: `\` and `"` escaped (RFC 5228 §2.4.2); line breaks are refused earlier by the schema. */
export function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A multi-line string (RFC 5228 §2.4.2 `text:`): lines starting with "." are dot-stuffed, CRLF line ends. */
export function textBlock(value: string): string {
  const lines = value.replace(/\r\n?/g, '\n').split('\n');
  return `text:\r\n${lines.map((line) => (line.startsWith('.') ? `.${line}` : line)).join('\r\n')}\r\n.\r\n`;
}

const list = (values: readonly string[]) => (values.length === 1 ? quote(values[0]!) : `[${values.map(quote).join(', ')}]`);

export function writeScript(rules: MailRules, ctx: ScriptContext): string {
  const needs = new Set<string>();
  const body: string[] = [];

  const blocked = blockSection(rules, ctx, needs);
  if (blocked) body.push(blocked);
  const replies = replySection(rules, ctx, needs);
  if (replies) body.push(replies);
  for (const filter of rules.filters) if (filter.enabled) body.push(filterBlock(filter, ctx, needs));
  const forwarding = rules.forwarding;
  if (forwarding.enabled && forwarding.address) {
    if (forwarding.keepCopy) needs.add('copy');
    body.push(`# Forwarding\r\nredirect ${forwarding.keepCopy ? ':copy ' : ''}${quote(forwarding.address)};\r\n`);
  }
  if (ctx.includeScript) {
    needs.add('include');
    body.push(`# The script that was active before Tern's rules, kept running\r\ninclude :personal ${quote(ctx.includeScript)};\r\n`);
  }
  const requires = [...needs].sort();
  return [HEADER, '\r\n', requires.length ? `require ${list(requires)};\r\n` : '', '\r\n', body.join('\r\n')].join('');
}

function blockSection(rules: MailRules, ctx: ScriptContext, needs: Set<string>): string | null {
  if (rules.blocked.length === 0) return null;
  const { addresses, domains } = splitSenders(rules.blocked);
  const hits: string[] = [];
  if (addresses.length) hits.push(`address :is "from" ${list(addresses)}`);
  if (domains.length) hits.push(`address :domain :is "from" ${list(domains)}`);
  let test = hits.length === 1 ? hits[0]! : `anyof(${hits.join(', ')})`;
  const allowed = allowedTest(rules.allowed);
  if (allowed) test = `allof(not ${allowed}, ${test})`;
  const toSpam = rules.blockAction === 'spam' && ctx.spamFolder;
  if (toSpam) needs.add('fileinto');
  const action = toSpam ? `fileinto ${quote(ctx.spamFolder!)};` : 'discard;';
  return `# Blocked senders${allowed ? ' (allowed senders never)' : ''}\r\nif ${test} {\r\n  ${action}\r\n  stop;\r\n}\r\n`;
}

function allowedTest(allowed: readonly string[]): string | null {
  if (allowed.length === 0) return null;
  const { addresses, domains } = splitSenders(allowed);
  const tests: string[] = [];
  if (addresses.length) tests.push(`address :is "from" ${list(addresses)}`);
  if (domains.length) tests.push(`address :domain :is "from" ${list(domains)}`);
  return tests.length === 1 ? tests[0]! : `anyof(${tests.join(', ')})`;
}

function splitSenders(entries: readonly string[]): { addresses: string[]; domains: string[] } {
  return { addresses: entries.filter((entry) => entry.includes('@')), domains: entries.filter((entry) => !entry.includes('@')) };
}

function replySection(rules: MailRules, ctx: ScriptContext, needs: Set<string>): string | null {
  const branches: string[] = [];
  if (rules.autoReply.enabled) {
    const window = dateWindow(rules.autoReply, needs);
    branches.push(`${window ? `if ${window}` : 'if true'} {\r\n${vacation(rules.autoReply.subject, rules.autoReply.body, rules.autoReply.days, ctx, needs)}}`);
  }
  if (rules.businessHours.enabled) {
    const outside = outsideHoursTest(rules.businessHours, ctx.now, needs);
    branches.push(`${branches.length ? 'elsif' : 'if'} ${outside} {\r\n${vacation(rules.businessHours.subject, rules.businessHours.body, 1, ctx, needs)}}`);
  }
  if (branches.length === 0) return null;
  needs.add('vacation');
  // Pigeonhole's vacation skips some of these itself; saying them keeps that true on any server.
  const guard = [
    'exists "list-id"',
    'exists "list-unsubscribe"',
    'header :contains "precedence" ["bulk", "list", "junk"]',
    'allof(exists "auto-submitted", not header :is "auto-submitted" "no")',
    `address :localpart :matches "from" ${list(NON_HUMAN_LOCAL_PARTS)}`,
  ];
  return `# Auto reply, never to lists, bulk or automated senders\r\nif not anyof(${guard.join(',\r\n    ')}) {\r\n${branches.join(' ')}\r\n}\r\n`;
}

/** The auto reply's days as currentdate tests (RFC 5260), or null when it has none. */
function dateWindow(reply: AutoReply, needs: Set<string>): string | null {
  const tests: string[] = [];
  if (reply.startDate) tests.push(`currentdate :value "ge" "date" ${quote(reply.startDate)}`);
  if (reply.endDate) tests.push(`currentdate :value "le" "date" ${quote(reply.endDate)}`);
  if (tests.length === 0) return null;
  needs.add('date');
  needs.add('relational');
  return tests.length === 1 ? tests[0]! : `allof(${tests.join(', ')})`;
}

/**
 * Outside working hours, in the zone's offset at `now`. Sieve zones are fixed offsets, so the
 * gateway writes the script again when the offset changes (sieve/dst-rewrite.ts).
 */
function outsideHoursTest(hours: BusinessHours, now: Date, needs: Set<string>): string {
  needs.add('date');
  needs.add('relational');
  needs.add('comparator-i;ascii-numeric');
  const zone = quote(zoneOffset(hours.timeZone, now));
  // "hour" and "minute" as one number: currentdate has no "HHMM" part, so compare the hour, and within its hour the minute.
  const at = (cmp: 'ge' | 'lt', time: string) => {
    const [h, m] = time.split(':') as [string, string];
    if (m === '00') return `currentdate :zone ${zone} :value ${quote(cmp)} :comparator "i;ascii-numeric" "hour" ${quote(h)}`;
    const strict = cmp === 'ge' ? 'gt' : 'lt';
    return `anyof(currentdate :zone ${zone} :value ${quote(strict)} :comparator "i;ascii-numeric" "hour" ${quote(h)}, allof(currentdate :zone ${zone} :is "hour" ${quote(h)}, currentdate :zone ${zone} :value ${quote(cmp)} :comparator "i;ascii-numeric" "minute" ${quote(m)}))`;
  };
  const inside = [`currentdate :zone ${zone} :is "weekday" ${list(hours.workDays.map((day) => String(day % 7)))}`, at('ge', hours.start), at('lt', hours.end)];
  return hours.workDays.length === 0 ? 'true' : `not allof(${inside.join(',\r\n      ')})`;
}

/** "+0100" for Europe/Berlin in winter: the zone's offset at `now`. */
export function zoneOffset(timeZone: string, now: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(now);
  const name = parts.find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? `${match[1]}${match[2]}${match[3]}` : '+0000';
}

/** A vacation action with a MIME body (text and HTML alternatives, UTF-8). */
function vacation(subject: string, text: string, days: number, ctx: ScriptContext, needs: Set<string>): string {
  needs.add('vacation');
  const boundary = 'tern-reply-boundary';
  const html = `<div>${text
    .split(/\r?\n/)
    .map((line) => line.replace(/[&<>"]/g, (c) => `&${({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' })[c]};`) || '<br>')
    .join('<br>\n')}</div>`;
  const mime = [
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    text,
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    html,
    `--${boundary}--`,
  ].join('\n');
  const args = [`:days ${days}`, ...(subject ? [`:subject ${quote(subject)}`] : []), ...(ctx.addresses.length ? [`:addresses ${list(ctx.addresses)}`] : []), ':mime'];
  return `  vacation ${args.join(' ')}\r\n${textBlock(mime)};\r\n`;
}

function filterBlock(filter: MailFilter, ctx: ScriptContext, needs: Set<string>): string {
  const tests = filter.conditions.map((condition) => conditionTest(condition, needs));
  const test = tests.length === 1 ? tests[0]! : `${filter.match === 'all' ? 'allof' : 'anyof'}(${tests.join(', ')})`;
  const actions = orderActions(filter.actions).map((action) => actionLine(action, ctx, needs));
  return `# Filter: ${filter.name.replace(/[\r\n]/g, ' ') || filter.id}\r\nif ${test} {\r\n${actions.map((line) => `  ${line}\r\n`).join('')}}\r\n`;
}

function conditionTest(condition: RuleCondition, needs: Set<string>): string {
  const text = (op: 'contains' | 'is' | 'notContains', test: string) => (op === 'notContains' ? `not ${test.replace('%OP%', ':contains')}` : test.replace('%OP%', `:${op}`));
  switch (condition.field) {
    case 'from':
      return text(condition.op, `address %OP% "from" ${quote(condition.value)}`);
    case 'toCc':
      return text(condition.op, `address %OP% ["to", "cc"] ${quote(condition.value)}`);
    case 'subject':
      return text(condition.op, `header %OP% "subject" ${quote(condition.value)}`);
    case 'listId':
      return text(condition.op, `header %OP% "list-id" ${quote(condition.value)}`);
    case 'header':
      return text(condition.op, `header %OP% ${quote(condition.name)} ${quote(condition.value)}`);
    case 'size':
      return `size :${condition.op} ${condition.kilobytes}K`;
    case 'hasAttachment':
      needs.add('mime');
      return 'header :mime :anychild :contains "Content-Disposition" "attachment"';
  }
}

/** Flags first (imap4flags applies them to the later fileinto and the implicit keep), stop last. */
function orderActions(actions: readonly RuleAction[]): RuleAction[] {
  const rank: Record<RuleAction['kind'], number> = { markRead: 0, star: 0, label: 0, forward: 1, move: 2, delete: 2, stop: 3 };
  return [...actions].sort((a, b) => rank[a.kind] - rank[b.kind]);
}

function actionLine(action: RuleAction, ctx: ScriptContext, needs: Set<string>): string {
  switch (action.kind) {
    case 'markRead':
      needs.add('imap4flags');
      return 'addflag "\\\\Seen";';
    case 'star':
      needs.add('imap4flags');
      return 'addflag "\\\\Flagged";';
    case 'label':
      needs.add('imap4flags');
      return `addflag ${quote(action.keyword)};`;
    case 'forward':
      needs.add('copy');
      return `redirect :copy ${quote(action.address)};`;
    case 'move':
      needs.add('fileinto');
      return `fileinto ${quote(action.folder)};`;
    case 'delete':
      if (!ctx.trashFolder) return 'discard;';
      needs.add('fileinto');
      return `fileinto ${quote(ctx.trashFolder)};`;
    case 'stop':
      return 'stop;';
  }
}

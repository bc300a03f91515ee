/**
 * What zod cannot see in a rules document: folders that must exist, date ranges that must run
 * forwards, a zone that must be real, replies that must say something. The first problem found,
 * as a catalogue error with the field it is about (detail.field), so the page can point at it.
 */
import type { ErrorName } from '../../shared/errors';
import type { MailRules } from '../../shared/mail-rules';

export interface RulesProblem {
  readonly error: ErrorName;
  readonly detail: { readonly field: string; readonly value?: string };
}

export function rulesProblem(rules: MailRules, context: { readonly folders: readonly string[]; readonly ownAddress: string }): RulesProblem | null {
  for (const [index, filter] of rules.filters.entries()) {
    for (const action of filter.actions) {
      if (action.kind === 'move' && !context.folders.includes(action.folder)) {
        return { error: 'TargetFolderNotExists', detail: { field: `filters.${index}.actions`, value: action.folder } };
      }
      if (action.kind === 'forward' && sameAddress(action.address, context.ownAddress)) {
        return { error: 'InvalidParameter', detail: { field: `filters.${index}.actions`, value: action.address } };
      }
    }
  }
  if (new Set(rules.filters.map((filter) => filter.id)).size !== rules.filters.length) return { error: 'InvalidParameter', detail: { field: 'filters' } };
  const reply = rules.autoReply;
  if (reply.startDate && reply.endDate && reply.endDate < reply.startDate) return { error: 'InvalidParameter', detail: { field: 'autoReply.endDate', value: reply.endDate } };
  for (const day of [reply.startDate, reply.endDate]) if (day && !isRealDay(day)) return { error: 'InvalidParameter', detail: { field: 'autoReply.startDate', value: day } };
  if (reply.enabled && !reply.body.trim()) return { error: 'InvalidParameter', detail: { field: 'autoReply.body' } };
  const hours = rules.businessHours;
  if (hours.enabled) {
    if (hours.end <= hours.start) return { error: 'InvalidParameter', detail: { field: 'businessHours.end', value: hours.end } };
    if (!isTimeZone(hours.timeZone)) return { error: 'InvalidParameter', detail: { field: 'businessHours.timeZone', value: hours.timeZone } };
    if (!hours.body.trim()) return { error: 'InvalidParameter', detail: { field: 'businessHours.body' } };
  }
  const forwarding = rules.forwarding;
  if (forwarding.enabled && (!forwarding.address || sameAddress(forwarding.address, context.ownAddress))) {
    return { error: 'InvalidParameter', detail: { field: 'forwarding.address', value: forwarding.address } };
  }
  return null;
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function isRealDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

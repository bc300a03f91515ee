/**
 * Desktop notifications (issue 15 point 5): what the engine tells a tab to show, and the
 * rules that decide whether an event is shown at all — one place, tested without a browser.
 */
import type { Message } from './strings';
import type { PreferenceValues } from './preferences';

export type NotificationKind = 'mail' | 'snooze' | 'remind' | 'followUp' | 'failedSend';

/** One notification: shown once across every tab (the engine picks one), `key` is also the browser's tag. */
export interface EngineNotification {
  /** What the event is, once: `mail:<account>:<message>`, `timer:<id>:<raisedAt>`, `failed:<account>:<outbox>`. */
  readonly key: string;
  readonly kind: NotificationKind;
  readonly accountId: string;
  /**
   * Its title; a catalogue message is worded by the tab that shows it (the strings stay out of
   * the engine's bundle: both languages' catalogue would double it).
   */
  readonly title: string | Message;
  readonly body: string;
  /** The conversation it is about (a click opens it), when there is one. */
  readonly threadId?: string;
}

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * Whether `now` falls in the quiet hours from–to, in local wall-clock minutes of the day.
 * From after to spans midnight (22:00–07:00); an empty end, or equal ends, means none.
 */
export function inQuietHours(preferences: Pick<PreferenceValues, 'quietFrom' | 'quietTo'>, minuteOfDay: number): boolean {
  const { quietFrom, quietTo } = preferences;
  if (!quietFrom || !quietTo || quietFrom === quietTo) return false;
  const from = minutes(quietFrom);
  const to = minutes(quietTo);
  return from < to ? minuteOfDay >= from && minuteOfDay < to : minuteOfDay >= from || minuteOfDay < to;
}

/** The keyword of mail the priority inbox calls important (RFC 8457; shared/labels.ts). */
const IMPORTANT = '$important';

/** Whether a new message makes a notification by the account's choice (`notifyMail`). */
export function mailWanted(preferences: Pick<PreferenceValues, 'notifyMail'>, message: { readonly inInbox: boolean; readonly keywords: readonly string[] }): boolean {
  if (preferences.notifyMail === 'off' || !message.inInbox) return false;
  if (preferences.notifyMail === 'important') return message.keywords.some((keyword) => keyword.toLowerCase() === IMPORTANT);
  return true;
}

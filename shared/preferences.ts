/**
 * The user's preferences (the spec's user-preferences service): one document per account,
 * kept by the gateway, cached by the engine and pushed to every tab. App-wide choices
 * (theme, view, language) are read from the primary account's document; the others
 * apply to their own account.
 *
 * Reading is forgiving (a stored value this build does not know falls back to its default,
 * so an older tab survives a newer gateway); writing is strict (a patch with an unknown
 * key or a bad value is InvalidRequestData).
 */
import * as z from 'zod';
import { RECEIPT_POLICIES } from './read-receipts';
import { priorityModelSchema } from './priority-score';
import type { Feature } from './plans';
import { UNDO_SEND_SECONDS } from './send-time';
import { SPELL_LANGUAGE_CHOICES } from './spelling';
import { spellWordsSchema } from './spell-words';

export const THEME_CHOICES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const VIEW_MODES = ['conversation', 'split', 'single', 'list'] as const;
export type ViewMode = (typeof VIEW_MODES)[number];

// The languages live in locales.ts, without zod, so the boot shell can resolve one cheaply.
import { LANGUAGE_CHOICES, LOCALES, resolveLocale, type LanguageChoice, type Locale } from './locales';
export { LANGUAGE_CHOICES, LOCALES, resolveLocale, type LanguageChoice, type Locale };

/** Which new mail makes a desktop notification. */
export const NOTIFY_MAIL_CHOICES = ['off', 'inbox', 'important'] as const;
export type NotifyMailChoice = (typeof NOTIFY_MAIL_CHOICES)[number];
const quietTimeSchema = z.string().regex(/^(|([01]\d|2[0-3]):[0-5]\d)$/, 'HH:MM, or empty');

export const preferenceValuesSchema = z.object({
  theme: z.enum(THEME_CHOICES),
  viewMode: z.enum(VIEW_MODES),
  language: z.enum(LANGUAGE_CHOICES),
  /** The composer checks spelling as you type (the browser's checker, and Tern's: src-ui/spell). Needs `spellChecker`. */
  spellCheck: z.boolean(),
  /** The language the composer checks in unless a message picks another (shared/spelling.ts; `auto`: the UI's). */
  spellLanguage: z.enum(SPELL_LANGUAGE_CHOICES),
  /** The personal word list ("Add to dictionary"): roams, so every device and tab knows the words. */
  spellWords: spellWordsSchema,
  /** The undo window of Send, in seconds (the gateway holds the message that long; shared/send-time.ts). */
  undoSendSeconds: z.number().int().min(UNDO_SEND_SECONDS.min).max(UNDO_SEND_SECONDS.max),
  /** Desktop notifications of new mail (issue 15 point 5): none, mail arriving in the Inbox, or only mail marked important. */
  notifyMail: z.enum(NOTIFY_MAIL_CHOICES),
  /** Desktop notifications of reminders, follow-ups and scheduled sends that failed. */
  notifyReminders: z.boolean(),
  /** Quiet hours, local wall-clock `HH:MM` (from may be after to: overnight); '' when there are none. */
  quietFrom: quietTimeSchema,
  quietTo: quietTimeSchema,
  /** When a message asks for a read receipt: ask each time, or never send one (shared/read-receipts.ts; no "always"). */
  readReceipts: z.enum(RECEIPT_POLICIES),
  /** Priority inbox (issue 17 point 4): the Inbox shows an Important section first; false: the plain Inbox. */
  priorityInbox: z.boolean(),
  /**
   * What the priority inbox learned from "Mark important / not important" (shared/priority-score.ts);
   * null: nothing yet (the rules' weights). A preference rather than a table of its own: it is a
   * few numbers per account that must roam to every device and change offline, which is exactly
   * what the preference document already does (delta pushes it, the engine queues a change made
   * offline) — a gateway table would need its own route, delta object and migration for that.
   */
  priorityModel: priorityModelSchema.nullable(),
  /**
   * Epoch ms: Inbox mail received up to this time has been scored (by any of the account's
   * devices; 0: never). Roams, so a second device does not score again — and set $Important
   * again on — mail the person has since marked not important elsewhere.
   */
  priorityScoredThrough: z.number().int().nonnegative(),
});
export type PreferenceValues = z.infer<typeof preferenceValuesSchema>;
export type PreferenceKey = keyof PreferenceValues;

export const DEFAULT_PREFERENCES: PreferenceValues = {
  theme: 'system',
  viewMode: 'conversation',
  language: 'auto',
  spellCheck: true,
  spellLanguage: 'auto',
  spellWords: [],
  undoSendSeconds: UNDO_SEND_SECONDS.default,
  notifyMail: 'inbox',
  notifyReminders: true,
  quietFrom: '',
  quietTo: '',
  readReceipts: 'ask',
  priorityInbox: false,
  priorityModel: null,
  priorityScoredThrough: 0,
};

/**
 * Preferences that need a plan's feature: the gateway refuses to change one without it
 * (FeatureNotInPlan). A value already stored stays readable after a downgrade.
 */
export const PREFERENCE_FEATURES: Partial<Record<PreferenceKey, Feature>> = {
  spellCheck: 'spellChecker',
  spellLanguage: 'spellChecker',
  spellWords: 'spellChecker',
};

/** Some preferences to change; at least one. */
export const preferencePatchSchema = preferenceValuesSchema
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'Change at least one preference');
export type PreferencePatch = z.infer<typeof preferencePatchSchema>;

/** An account's preferences as the gateway keeps them. */
export const preferencesDocSchema = z.object({
  /** Goes up by one with every change; 0 before the first. */
  revision: z.number().int().nonnegative(),
  values: preferenceValuesSchema,
  /** Epoch ms of the last change (0 before the first). */
  updatedAt: z.number().int().nonnegative(),
});
export type PreferencesDoc = z.infer<typeof preferencesDocSchema>;

/** PATCH /api/preferences: the keys to change. Answers the whole new document. */
export const preferencesPatchRequestSchema = z.object({ values: preferencePatchSchema });
export type PreferencesPatchRequest = z.infer<typeof preferencesPatchRequestSchema>;

/** Stored or received values made whole: what this build does not know falls back to its default. */
export function readPreferenceValues(raw: unknown): PreferenceValues {
  const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const values: Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  for (const key of Object.keys(DEFAULT_PREFERENCES) as PreferenceKey[]) {
    const parsed = preferenceValuesSchema.shape[key].safeParse(source[key]);
    if (parsed.success) values[key] = parsed.data;
  }
  return values as PreferenceValues;
}

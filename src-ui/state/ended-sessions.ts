/**
 * Sessions the gateway ended (forced logout: a refused token, or a gateway restarted with
 * new data), as the engine remembers them until the address signs in again. The login
 * screen says so instead of a bare sign-in form, and a tab that still has other accounts
 * gets a toast (issue points 21 and 24).
 */
import { atom } from 'jotai';
import type { EndedSession } from '../../shared/worker-api';

export const endedSessionsAtom = atom<readonly EndedSession[]>([]);

/**
 * What a person reads when the gateway ended an account's session; `keptDrafts` says how
 * many of their unsent drafts and sends the engine kept for the next sign-in.
 */
export function sessionEndedMessage(emailAddress: string, keptDrafts = 0): string {
  const ended = `Your session for ${emailAddress} ended. Sign in again.`;
  if (keptDrafts <= 0) return ended;
  const kept = keptDrafts === 1 ? '1 unsent draft is kept' : `${keptDrafts} unsent drafts are kept`;
  return `${ended} ${kept} on this device and will be saved to Drafts when you sign in.`;
}

/** The toast after a sign-in saved kept unsent work to Drafts; files a gateway with fresh data lost are named too. */
export function restoredDraftsMessage(restored: number, lostAttachments = 0): string {
  const said = restored === 1 ? '1 unsent message was restored to Drafts.' : `${restored} unsent messages were restored to Drafts.`;
  if (lostAttachments <= 0) return said;
  return `${said} ${lostAttachments === 1 ? '1 attachment' : `${lostAttachments} attachments`} could not be kept: attach ${lostAttachments === 1 ? 'it' : 'them'} again.`;
}

/** Ended sessions not yet in `known` (what the tab had already heard). */
export function newlyEnded(ended: readonly EndedSession[], known: readonly EndedSession[]): EndedSession[] {
  const seen = new Set(known.map((session) => `${session.emailAddress}\n${session.endedAt}`));
  return ended.filter((session) => !seen.has(`${session.emailAddress}\n${session.endedAt}`));
}

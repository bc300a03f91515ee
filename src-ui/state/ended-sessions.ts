/**
 * Sessions the gateway ended (forced logout: a refused token, or a gateway restarted with
 * new data), as the engine remembers them until the address signs in again. The login
 * screen says so instead of a bare sign-in form, and a tab that still has other accounts
 * gets a toast (issue points 21 and 24).
 */
import { atom } from 'jotai';
import type { EndedSession } from '../../shared/worker-api';

export const endedSessionsAtom = atom<readonly EndedSession[]>([]);

/** "1 message you were sending was not sent: it is in Drafts." (a send that waited for a draft the server has). */
function notSentSentence(count: number): string {
  return count === 1 ? '1 message you were sending was not sent: it is in Drafts.' : `${count} messages you were sending were not sent: they are in Drafts.`;
}

/**
 * What a person reads when the gateway ended an account's session: with how many unsent
 * drafts the engine kept for the next sign-in, and how many sends did not go.
 */
export function sessionEndedMessage(session: Pick<EndedSession, 'emailAddress' | 'keptDrafts' | 'sendsInDrafts'>): string {
  const parts = [`Your session for ${session.emailAddress} ended. Sign in again.`];
  const kept = session.keptDrafts ?? 0;
  if (kept > 0) parts.push(`${kept === 1 ? '1 unsent draft is kept' : `${kept} unsent drafts are kept`} on this device and will be saved to Drafts when you sign in.`);
  if ((session.sendsInDrafts ?? 0) > 0) parts.push(notSentSentence(session.sendsInDrafts!));
  return parts.join(' ');
}

/** The toast after a sign-in saved kept unsent work to Drafts; files a gateway with fresh data lost are named too. */
export function restoredDraftsMessage(result: { readonly restoredDrafts?: number; readonly lostAttachments?: number; readonly sendsInDrafts?: number }): string {
  const parts: string[] = [];
  const restored = result.restoredDrafts ?? 0;
  const lost = result.lostAttachments ?? 0;
  if (restored > 0) parts.push(restored === 1 ? '1 unsent message was restored to Drafts.' : `${restored} unsent messages were restored to Drafts.`);
  if (lost > 0) parts.push(`${lost === 1 ? '1 attachment' : `${lost} attachments`} could not be kept: attach ${lost === 1 ? 'it' : 'them'} again.`);
  if ((result.sendsInDrafts ?? 0) > 0) parts.push(notSentSentence(result.sendsInDrafts!));
  return parts.join(' ');
}

/** Ended sessions not yet in `known` (what the tab had already heard). */
export function newlyEnded(ended: readonly EndedSession[], known: readonly EndedSession[]): EndedSession[] {
  const seen = new Set(known.map((session) => `${session.emailAddress}\n${session.endedAt}`));
  return ended.filter((session) => !seen.has(`${session.emailAddress}\n${session.endedAt}`));
}

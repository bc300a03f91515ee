/**
 * Sessions the gateway ended (forced logout: a refused token, or a gateway restarted with
 * new data), as the engine remembers them until the address signs in again. The login
 * screen says so instead of a bare sign-in form, and a tab that still has other accounts
 * gets a toast (issue points 21 and 24).
 */
import { atom } from 'jotai';
import type { Message, Phrase } from '../../shared/strings';
import type { EndedSession } from '../../shared/worker-api';

export const endedSessionsAtom = atom<readonly EndedSession[]>([]);

/**
 * What a person reads when the gateway ended an account's session: with how many unsent
 * drafts the engine kept for the next sign-in, and how many sends did not go.
 */
export function sessionEndedMessage(session: Pick<EndedSession, 'emailAddress' | 'keptDrafts' | 'sendsInDrafts'>): Phrase {
  const parts: Message[] = [{ id: 'login.sessionEnded', values: { email: session.emailAddress } }];
  const kept = session.keptDrafts ?? 0;
  if (kept > 0) parts.push({ id: 'login.keptDrafts', values: { count: kept } });
  if ((session.sendsInDrafts ?? 0) > 0) parts.push({ id: 'login.sendsInDrafts', values: { count: session.sendsInDrafts! } });
  return parts;
}

/** The toast after a sign-in saved kept unsent work to Drafts; files a gateway with fresh data lost are named too. */
export function restoredDraftsMessage(result: { readonly restoredDrafts?: number; readonly lostAttachments?: number; readonly sendsInDrafts?: number }): Phrase {
  const parts: Message[] = [];
  const restored = result.restoredDrafts ?? 0;
  const lost = result.lostAttachments ?? 0;
  if (restored > 0) parts.push({ id: 'login.restoredDrafts', values: { count: restored } });
  if (lost > 0) parts.push({ id: 'login.lostAttachments', values: { count: lost } });
  if ((result.sendsInDrafts ?? 0) > 0) parts.push({ id: 'login.sendsInDrafts', values: { count: result.sendsInDrafts! } });
  return parts;
}

/** Ended sessions not yet in `known` (what the tab had already heard). */
export function newlyEnded(ended: readonly EndedSession[], known: readonly EndedSession[]): EndedSession[] {
  const seen = new Set(known.map((session) => `${session.emailAddress}\n${session.endedAt}`));
  return ended.filter((session) => !seen.has(`${session.emailAddress}\n${session.endedAt}`));
}

/**
 * Sessions the gateway ended (forced logout: a refused token, or a gateway restarted with
 * new data), as the engine remembers them until the address signs in again. The login
 * screen says so instead of a bare sign-in form, and a tab that still has other accounts
 * gets a toast (issue points 21 and 24).
 */
import { atom } from 'jotai';
import type { EndedSession } from '../../shared/worker-api';

export const endedSessionsAtom = atom<readonly EndedSession[]>([]);

/** The sentence a person reads when the gateway ended an account's session. */
export function sessionEndedMessage(emailAddress: string): string {
  return `Your session for ${emailAddress} ended. Sign in again.`;
}

/** Ended sessions not yet in `known` (what the tab had already heard). */
export function newlyEnded(ended: readonly EndedSession[], known: readonly EndedSession[]): EndedSession[] {
  const seen = new Set(known.map((session) => `${session.emailAddress}\n${session.endedAt}`));
  return ended.filter((session) => !seen.has(`${session.emailAddress}\n${session.endedAt}`));
}

import type { FastifyRequest } from 'fastify';
import { TernError } from '../../shared/errors';
import type { Session, SessionStore } from '../accounts/session-store';

/** The session of an API request: `Authorization: Bearer <token>` (one token per account). */
export function sessionOf(sessions: SessionStore, request: FastifyRequest): Session {
  const header = request.headers.authorization;
  const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  return sessions.verify(token);
}

/**
 * The session of a file download. A download URL can be opened by the browser itself (a
 * link, a new tab, a download manager), which sends no token: that is a request without
 * credentials, so it is answered 401 UNAUTHENTICATED, as HTTP means it, rather than the
 * API's 400 TokenParamMissing (a client that forgot a parameter).
 */
export function downloadSessionOf(sessions: SessionStore, request: FastifyRequest): Session {
  try {
    return sessionOf(sessions, request);
  } catch (error) {
    if (error instanceof TernError && error.name === 'TokenParamMissing') throw new TernError('UNAUTHENTICATED');
    throw error;
  }
}

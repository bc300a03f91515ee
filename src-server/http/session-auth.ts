import type { FastifyRequest } from 'fastify';
import type { Session, SessionStore } from '../accounts/session-store';

/** The session of an API request: `Authorization: Bearer <token>` (one token per account). */
export function sessionOf(sessions: SessionStore, request: FastifyRequest): Session {
  const header = request.headers.authorization;
  const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  return sessions.verify(token);
}

import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { alternateEmailRequestSchema, codeRequestSchema, type Enrolment, type RecoveryCodes, type SecurityStatus } from '../../../shared/api/security';
import { sessionIdOf } from '../../accounts/session-store';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

/** A code and little else. */
const BODY_LIMIT = 4 * 1024;

const twoFactorCodeSchema = z.object({ twoFactorCode: z.string().trim().max(64).optional() });

const sessionParamsSchema = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/) });

/**
 * Account security (issue 19): two-factor enrolment, disabling and recovery codes, and the
 * account's sessions. Nothing here is cached: every reply is about secrets or sessions.
 */
export function registerSecurityRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { twoFactor, sessions, alternateEmail } = ctx;
  const canMail = ctx.config.systemMail !== undefined;

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/security')) reply.header('Cache-Control', 'no-store');
  });

  app.get('/api/security', async (request): Promise<SecurityStatus> => ({
    twoFactor: await twoFactor.status(request.session.accountId),
    alternateEmail: await alternateEmail.get(request.session.accountId),
    systemMail: canMail,
  }));

  // A new alternate address gets a code; with two-factor on, a fresh code from the app too.
  app.put('/api/security/alternate-email', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const { email, twoFactorCode } = parseInput(alternateEmailRequestSchema, request.body);
    await alternateEmail.set(request.session.accountId, email, { twoFactorCode, ip: request.ip });
    return reply.code(204).send();
  });

  app.post('/api/security/alternate-email/confirm', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const { code } = parseInput(codeRequestSchema, request.body);
    await alternateEmail.confirm(request.session.accountId, code);
    return reply.code(204).send();
  });

  app.post('/api/security/alternate-email/remove', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const { twoFactorCode } = parseInput(twoFactorCodeSchema, request.body ?? {});
    await alternateEmail.remove(request.session.accountId, { twoFactorCode, ip: request.ip });
    return reply.code(204).send();
  });

  app.post('/api/security/two-factor/enrol', { bodyLimit: BODY_LIMIT }, async (request): Promise<Enrolment> => twoFactor.enrol(request.session.accountId));

  app.post('/api/security/two-factor/confirm', { bodyLimit: BODY_LIMIT }, async (request): Promise<RecoveryCodes> => {
    const { code } = parseInput(codeRequestSchema, request.body);
    return twoFactor.confirm(request.session.accountId, code, request.ip);
  });

  app.post('/api/security/two-factor/disable', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const { code } = parseInput(codeRequestSchema, request.body);
    await twoFactor.disable(request.session.accountId, code, request.ip);
    return reply.code(204).send();
  });

  app.post('/api/security/two-factor/recovery-codes', { bodyLimit: BODY_LIMIT }, async (request): Promise<RecoveryCodes> => {
    const { code } = parseInput(codeRequestSchema, request.body);
    return twoFactor.regenerateRecoveryCodes(request.session.accountId, code, request.ip);
  });

  app.get('/api/security/sessions', async (request) => {
    const list = await sessions.list(request.session.accountId);
    const current = sessionIdOf(request.session.tokenHash);
    return {
      sessions: list.map(({ tokenHash: _, ...session }) => ({ ...session, current: session.id === current })),
    };
  });

  // Signs one session out; its websockets close through the sessions' 'ended' event (on every node with Redis).
  app.delete('/api/security/sessions/:id', async (request, reply) => {
    const { id } = parseInput(sessionParamsSchema, request.params);
    await sessions.endOf(request.session.accountId, { id });
    return reply.code(204).send();
  });

  // "Sign out everywhere else": every session of the account but this one.
  app.post('/api/security/sessions/end-others', { bodyLimit: BODY_LIMIT }, async (request) => ({
    ended: await sessions.endOf(request.session.accountId, { id: null, except: request.session.tokenHash }),
  }));
}

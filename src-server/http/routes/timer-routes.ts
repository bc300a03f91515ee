import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { objectIdSchema } from '../../../shared/api/compose';
import { followUpRequestSchema, followUpUpdateSchema, threadTimerRequestSchema, type TimerResult, type TimersDoc } from '../../../shared/api/timers';
import { parseInput } from '../../actions/request-input';
import type { GatewayContext } from '../../context';

const idParams = z.object({ id: objectIdSchema });

/**
 * Snooze, reminders and follow-ups (issue 15 points 3–4; shapes in shared/api/timers.ts).
 * The spec's calls: reminders upsert and get; follow-up fetch, add, update, delete.
 *   GET  /api/reminders → TimersDoc: every waiting or raised timer (the delta's `timers` too).
 *   POST /api/reminders/upsert {threadId, schedule} → TimerResult: the thread's reminder, at this time.
 *   DELETE /api/reminders/:id → cancelled (waiting) or its mark dismissed (raised).
 *   GET /api/follow-ups, POST /api/follow-ups {messageId, schedule}, PUT /api/follow-ups/:id {schedule}, DELETE /api/follow-ups/:id.
 *   POST /api/snoozes {threadId, schedule}: out of the Inbox until then; DELETE /api/snoozes/:id: back now (or its mark dismissed).
 * Times refused as a scheduled send's are: ScheduleTimeInPast, ScheduleTimeTooFar, ScheduleTimeNonexistent.
 */
export function registerTimerRoutes(app: FastifyInstance, ctx: GatewayContext): void {
  const { timers } = ctx;
  const id = (request: { params: unknown }) => Number(parseInput(idParams, request.params).id);

  app.get('/api/reminders', async (request, reply): Promise<TimersDoc> => {
    reply.header('Cache-Control', 'no-store');
    return timers.doc(request.session.accountId);
  });
  app.post('/api/reminders/upsert', async (request): Promise<TimerResult> => timers.remind(request.session.accountId, parseInput(threadTimerRequestSchema, request.body)));
  app.delete('/api/reminders/:id', async (request): Promise<TimerResult> => timers.remove(request.session.accountId, id(request), ['remind']));

  app.get('/api/follow-ups', async (request, reply): Promise<TimersDoc> => {
    reply.header('Cache-Control', 'no-store');
    return timers.followUps(request.session.accountId);
  });
  app.post('/api/follow-ups', async (request): Promise<TimerResult> => timers.addFollowUp(request.session.accountId, parseInput(followUpRequestSchema, request.body)));
  app.put('/api/follow-ups/:id', async (request): Promise<TimerResult> =>
    timers.updateFollowUp(request.session.accountId, id(request), parseInput(followUpUpdateSchema, request.body).schedule),
  );
  app.delete('/api/follow-ups/:id', async (request): Promise<TimerResult> => timers.remove(request.session.accountId, id(request), ['followUp']));

  app.post('/api/snoozes', async (request): Promise<TimerResult> => timers.snooze(request.session.accountId, parseInput(threadTimerRequestSchema, request.body)));
  app.delete('/api/snoozes/:id', async (request): Promise<TimerResult> => timers.remove(request.session.accountId, id(request), ['snooze']));
}

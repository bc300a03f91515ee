/** The gateway's snooze, reminder and follow-up routes (shared/api/timers.ts), for one account. */
import { timerResultSchema, timersDocSchema, type TimerKind, type TimerResult, type TimersDoc } from '../../shared/api/timers';
import type { Schedule } from '../../shared/send-time';
import type { GatewayClient } from '../api/gateway-client';

export interface TimersGateway {
  list(): Promise<TimersDoc>;
  snooze(threadId: string, schedule: Schedule): Promise<TimerResult>;
  remind(threadId: string, schedule: Schedule): Promise<TimerResult>;
  followUp(messageId: string, schedule: Schedule): Promise<TimerResult>;
  remove(timerId: string, kind: TimerKind): Promise<TimerResult>;
}

/** Where each kind is removed: the spec's reminders and follow-up calls, and snooze's own. */
const PATHS: Record<TimerKind, string> = { remind: '/reminders', followUp: '/follow-ups', snooze: '/snoozes' };

export function createTimersGateway(client: GatewayClient): TimersGateway {
  return {
    list: () => client.json({ type: 'reminders', path: '/reminders' }, timersDocSchema),
    // Each is an upsert of the thread's one timer of its kind: safe to repeat.
    snooze: (threadId, schedule) => client.json({ type: 'reminders', method: 'POST', path: '/snoozes', json: { threadId, schedule } }, timerResultSchema),
    remind: (threadId, schedule) => client.json({ type: 'reminders', method: 'POST', path: '/reminders/upsert', json: { threadId, schedule } }, timerResultSchema),
    followUp: (messageId, schedule) => client.json({ type: 'followUp', method: 'POST', path: '/follow-ups', json: { messageId, schedule } }, timerResultSchema),
    remove: (timerId, kind) => client.json({ type: kind === 'followUp' ? 'followUp' : 'reminders', method: 'DELETE', path: `${PATHS[kind]}/${encodeURIComponent(timerId)}` }, timerResultSchema),
  };
}

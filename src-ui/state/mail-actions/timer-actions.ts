/**
 * Snooze, reminders and follow-ups (issue 15 points 3–4): set and removed on the gateway
 * through the engine, which keeps every account's list (delta's `timers` document) and says
 * when it changed. Refusals become the catalogue's TernError (ScheduleTimeInPast …).
 */
import type { TimerKind } from '../../../shared/api/timers';
import type { EngineNotification } from '../../../shared/notifications';
import { TernError } from '../../../shared/errors';
import type { Schedule } from '../../../shared/send-time';
import type { TimerView } from '../../../shared/worker-api';
import type { UiEngine } from '../engine-port';
import { asTernError, engineService } from './engine-call';
import { engineSubscription } from './engine-subscription';

export interface TimerActions {
  /** The accounts' waiting and raised timers, soonest first. */
  timers(accountIds: readonly string[]): Promise<readonly TimerView[]>;
  /** Hears which account's timers changed (any device); returns the unsubscribe. */
  watchTimers(onChange: (accountId: string) => void): () => void;
  snoozeThread(params: { accountId: string; threadId: string; schedule: Schedule }): Promise<TimerView>;
  remindThread(params: { accountId: string; threadId: string; schedule: Schedule }): Promise<TimerView>;
  followUpMessage(params: { accountId: string; messageId: string; schedule: Schedule }): Promise<TimerView>;
  /** Cancel a waiting timer (unsnooze a snoozed thread), or dismiss a raised one's mark. */
  removeTimer(params: { accountId: string; timerId: string; kind: TimerKind }): Promise<void>;
  /** This tab shows the desktop notifications the engine picks it for; returns the unsubscribe. */
  watchNotifications(show: (notification: EngineNotification) => boolean): () => void;
}

export function createTimerActions(params: { engine: UiEngine }): TimerActions {
  const { engine } = params;
  const service = () => engineService(engine, 'timers');
  return {
    timers: async (accountIds) => (engine.timers ? engine.timers.list({ accountIds }) : []),
    watchTimers(onChange) {
      const timers = engine.timers;
      return timers ? engineSubscription(() => timers.watch(onChange), (params) => timers.unwatch(params)) : () => undefined;
    },
    snoozeThread: (params) => asTernError(() => service().snooze(params)),
    remindThread: (params) => asTernError(() => service().remind(params)),
    followUpMessage: (params) => asTernError(() => service().followUp(params)),
    removeTimer: (params) => asTernError(() => service().remove(params)),
    watchNotifications(show) {
      const notifications = engine.notifications;
      return notifications ? engineSubscription(() => notifications.watch(show), (params) => notifications.unwatch(params)) : () => undefined;
    },
  };
}

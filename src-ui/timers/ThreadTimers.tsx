/**
 * The open conversation's times (issue 15 points 3–4): Snooze, Remind me and — on a
 * conversation with a message the person sent — Follow up, each with the presets and the
 * picker every time menu has (kit/TimeChoice.tsx); and a line per timer the gateway keeps for
 * it: "Snoozed until …" (Unsnooze), "Reminder …" (Cancel), "Follow up if no reply by …",
 * or, once one fired, its mark ("No reply yet") with Done.
 */
import { useState } from 'react';
import { addressKey } from '../../shared/address-equivalence';
import type { TimerKind } from '../../shared/api/timers';
import { TernError } from '../../shared/errors';
import type { Schedule } from '../../shared/send-time';
import { errorPhrase, type MessageId } from '../../shared/strings';
import type { ThreadView } from '../../shared/worker-mail-api';
import type { TimerView } from '../../shared/worker-api';
import { formatFullTime } from '../kit/date-format';
import { Icon } from '../kit/icons';
import { useLocale, useT } from '../kit/i18n';
import { browserTimeZone, scheduleLabel, TimeMenu, timePresets } from '../kit/TimeChoice';
import { useMailActions } from '../state/actions-context';
import { RAISED_MARK_TEXT, useThreadTimers } from '../state/timers';
import './timers.css';

const WAITING_TEXT: Record<TimerKind, MessageId> = { snooze: 'timers.snoozedUntil', remind: 'timers.remindAt', followUp: 'timers.followUpBy' };

/** `buttons`: the three menus, for the reading pane's bar; `lines`: the thread's timers, above the conversation. */
export function ThreadTimers(props: { thread: ThreadView; ownAddresses: readonly string[]; part: 'buttons' | 'lines' }) {
  const t = useT();
  const locale = useLocale();
  const actions = useMailActions();
  const { row, messages } = props.thread;
  const timers = useThreadTimers(row.key);
  const [busy, setBusy] = useState(false);
  const own = new Set(props.ownAddresses.map(addressKey));
  // The newest message the person sent: what "no reply" is measured from.
  const sent = [...messages].reverse().find((message) => !message.draft && message.from.some((address) => own.has(addressKey(address.email))));
  const presets = timePresets({
    now: Date.now(),
    zone: browserTimeZone(),
    labels: { laterToday: t('timers.laterToday'), tomorrowMorning: t('timers.tomorrowMorning'), mondayMorning: t('timers.mondayMorning') },
  });

  const run = async (work: () => Promise<unknown>, done: string | null, failure: string) => {
    setBusy(true);
    try {
      await work();
      if (done) actions.toast({ tone: 'info', message: done });
    } catch (error) {
      actions.toast({ tone: 'error', title: failure, message: errorPhrase(TernError.from(error)) });
    } finally {
      setBusy(false);
    }
  };
  const set = (kind: TimerKind, schedule: Schedule) => {
    const when = scheduleLabel(schedule, locale);
    const { accountId, threadId } = row;
    if (kind === 'snooze') return run(() => actions.snoozeThread({ accountId, threadId, schedule }), t('timers.snoozedToast', { when }), t('timers.couldNotSet'));
    if (kind === 'remind') return run(() => actions.remindThread({ accountId, threadId, schedule }), t('timers.remindToast', { when }), t('timers.couldNotSet'));
    if (sent) return run(() => actions.followUpMessage({ accountId, messageId: sent.id, schedule }), t('timers.followUpToast', { when }), t('timers.couldNotSet'));
  };
  const remove = (timer: TimerView) => run(() => actions.removeTimer({ accountId: timer.accountId, timerId: timer.id, kind: timer.kind }), null, t('timers.couldNotRemove'));
  const menu = (kind: TimerKind, label: MessageId, options: MessageId, title: MessageId, submit: MessageId, icon: 'clock' | 'bell' | 'reply') => (
    <TimeMenu
      label={t(options)}
      title={t(label)}
      className="icon-button thread-timer-button"
      disabled={busy}
      presets={presets}
      pickLabel={t('timers.pickTime')}
      dialogTitle={t(title)}
      submitLabel={t(submit)}
      onChoose={(schedule) => void set(kind, schedule)}
    >
      <Icon name={icon} size={18} />
    </TimeMenu>
  );

  if (props.part === 'buttons') {
    return (
      <div className="thread-timer-buttons">
        {menu('snooze', 'timers.snooze', 'timers.snoozeOptions', 'timers.snoozeTitle', 'timers.snoozeSubmit', 'clock')}
        {menu('remind', 'timers.remind', 'timers.remindOptions', 'timers.remindTitle', 'timers.remindSubmit', 'bell')}
        {sent && menu('followUp', 'timers.followUp', 'timers.followUpOptions', 'timers.followUpTitle', 'timers.followUpSubmit', 'reply')}
      </div>
    );
  }
  if (timers.length === 0) return null;
  return (
    <ul className="thread-timer-lines" aria-label={t('timers.linesLabel')}>
      {timers.map((timer) => (
        <li key={timer.id} className={timer.state === 'raised' ? 'thread-timer-line is-raised' : 'thread-timer-line'} data-kind={timer.kind}>
          <Icon name={timer.kind === 'remind' ? 'bell' : timer.kind === 'followUp' ? 'reply' : 'clock'} size={15} />
          <span className="thread-timer-text">{timer.state === 'raised' ? t(RAISED_MARK_TEXT[timer.kind]) : t(WAITING_TEXT[timer.kind], { when: formatFullTime(timer.dueAt, locale) })}</span>
          <button type="button" className="tern-link-button" disabled={busy} onClick={() => void remove(timer)}>
            {timer.state === 'raised' ? t('timers.done') : timer.kind === 'snooze' ? t('timers.unsnooze') : t('timers.cancel')}
          </button>
        </li>
      ))}
    </ul>
  );
}

export default ThreadTimers;

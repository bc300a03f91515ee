/**
 * "Send later" beside Send (issue 15 point 1): two presets — tomorrow at 8:00 and Monday at
 * 8:00 — and a date-time picker, all in the browser's time zone (kit/TimeChoice.tsx, shared
 * with Snooze and Remind me). The gateway stores the time as UTC with the zone and sends then.
 */
import type { Schedule } from '../../shared/send-time';
import { Icon } from '../kit/icons';
import { useT } from '../kit/i18n';
import { browserTimeZone, TimeMenu, timePresets } from '../kit/TimeChoice';

export function SendLater(props: { disabled: boolean; onSchedule: (schedule: Schedule) => void }) {
  const t = useT();
  const presets = timePresets({ now: Date.now(), zone: browserTimeZone(), labels: { tomorrowMorning: t('scheduled.tomorrowMorning'), mondayMorning: t('scheduled.mondayMorning') } });
  return (
    <TimeMenu
      label={t('scheduled.sendLaterOptions')}
      title={t('scheduled.sendLater')}
      className="tern-icon-button tern-send-later"
      disabled={props.disabled}
      presets={presets}
      pickLabel={t('scheduled.pickTime')}
      dialogTitle={t('scheduled.dialogTitle')}
      submitLabel={t('scheduled.schedule')}
      onChoose={props.onSchedule}
    >
      <Icon name="clock" />
    </TimeMenu>
  );
}

/**
 * "Send later" beside Send (issue 15 point 1): two presets — tomorrow at 8:00 and Monday at
 * 8:00 — and a date-time picker, all in the browser's time zone. The choice is a wall-clock
 * time plus its IANA zone; the gateway stores it as UTC with the zone and sends it then.
 * A time in the past, more than a year ahead or skipped by a clock change is refused here
 * with the catalogue's words (shared/send-time.ts, the same check the gateway makes).
 */
import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { TernError } from '../../shared/errors';
import { checkSchedule, schedulePresets, utcToLocal, zonedToUtc, type Schedule } from '../../shared/send-time';
import { formatFullTime } from '../kit/date-format';
import { Icon } from '../kit/icons';
import { errorText, useLocale, useT } from '../kit/i18n';
import { MenuButton } from '../kit/Menu';
import { ModalDialog } from '../kit/ModalDialog';

/** The browser's zone (what the person means by "8:00"). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** When a schedule sends, for people: "Mon, 30 Nov, 08:00". */
export function scheduleLabel(schedule: Schedule, locale: string): string {
  const at = zonedToUtc(schedule.at, schedule.timeZone);
  return at === null ? schedule.at.replace('T', ' ') : formatFullTime(at, locale);
}

export function SendLater(props: { disabled: boolean; onSchedule: (schedule: Schedule) => void }) {
  const t = useT();
  const locale = useLocale();
  const [picking, setPicking] = useState(false);
  const zone = browserTimeZone();
  const presets = schedulePresets(Date.now(), zone);
  return (
    <>
      <MenuButton
        label={t('scheduled.sendLaterOptions')}
        title={t('scheduled.sendLater')}
        className="tern-icon-button tern-send-later"
        disabled={props.disabled}
        entries={[
          { kind: 'item', id: 'tomorrow', label: t('scheduled.tomorrowMorning'), description: scheduleLabel(presets.tomorrowMorning, locale), icon: 'clock', onSelect: () => props.onSchedule(presets.tomorrowMorning) },
          { kind: 'item', id: 'monday', label: t('scheduled.mondayMorning'), description: scheduleLabel(presets.mondayMorning, locale), icon: 'clock', onSelect: () => props.onSchedule(presets.mondayMorning) },
          { kind: 'separator', id: 'sep' },
          { kind: 'item', id: 'pick', label: t('scheduled.pickTime'), onSelect: () => setPicking(true) },
        ]}
      >
        <Icon name="clock" />
      </MenuButton>
      {picking &&
        // Outside the composer's form (no form inside a form), and its keys and submit stay its own:
        // React events bubble through a portal, and the composer's Enter/Escape/submit would act on them.
        createPortal(
          <div onKeyDown={(event) => event.stopPropagation()} onSubmit={(event) => event.stopPropagation()}>
        <PickTimeDialog
          zone={zone}
          initial={presets.tomorrowMorning.at}
          onClose={() => setPicking(false)}
          onPick={(schedule) => {
            setPicking(false);
            props.onSchedule(schedule);
          }}
        />
          </div>,
          document.body,
        )}
    </>
  );
}

function PickTimeDialog(props: { zone: string; initial: string; onClose: () => void; onPick: (schedule: Schedule) => void }) {
  const t = useT();
  const id = useId();
  const [at, setAt] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const schedule = { at, timeZone: props.zone };
    const check = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(at) ? checkSchedule(schedule, Date.now()) : ({ ok: false, error: 'ScheduleTimeInPast' } as const);
    if (!check.ok) return setError(errorText(t, new TernError(check.error)));
    props.onPick(schedule);
  };
  return (
    <ModalDialog title={t('scheduled.dialogTitle')} onClose={props.onClose} className="send-later-dialog">
      <form
        className="modal-dialog-body"
        // Our own check says why, in the catalogue's words (the browser's would say less, or nothing for a DST gap).
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label className="field-label" htmlFor={id}>
          {t('scheduled.dateTime')}
        </label>
        <input
          id={id}
          type="datetime-local"
          className="input"
          value={at}
          min={utcToLocal(Date.now(), props.zone)}
          autoFocus
          aria-describedby={`${id}-hint`}
          aria-invalid={error !== null || undefined}
          onChange={(event) => {
            setAt(event.target.value.slice(0, 16));
            setError(null);
          }}
        />
        <p id={`${id}-hint`} className="field-hint">
          {t('scheduled.timeZoneHint', { zone: props.zone })}
        </p>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-dialog-actions">
          <button type="button" className="button button-secondary" onClick={props.onClose}>
            {t('scheduled.cancel')}
          </button>
          <button type="submit" className="button button-primary">
            {t('scheduled.schedule')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

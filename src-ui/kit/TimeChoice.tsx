/**
 * Choosing a time ahead (issue 15): Send later, Snooze, Remind me and Follow up all offer
 * the same presets and the same date-time picker, in the browser's time zone. The choice is
 * a wall-clock time plus its IANA zone; the gateway stores it as UTC with the zone. A time in
 * the past, more than a year ahead or skipped by a clock change is refused here with the
 * catalogue's words (shared/send-time.ts, the same check the gateway makes).
 */
import { useId, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { TernError } from '../../shared/errors';
import { checkSchedule, schedulePresets, utcToLocal, zonedToUtc, type Schedule } from '../../shared/send-time';
import { formatFullTime } from './date-format';
import { errorText, useLocale, useT } from './i18n';
import { MenuButton, type MenuEntry } from './Menu';
import { ModalDialog } from './ModalDialog';
import { FieldError } from './FieldError';

/** The browser's zone (what the person means by "8:00"). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** When a schedule falls, for people: "Mon, 30 Nov, 08:00". */
export function scheduleLabel(schedule: Schedule, locale: string): string {
  const at = zonedToUtc(schedule.at, schedule.timeZone);
  return at === null ? schedule.at.replace('T', ' ') : formatFullTime(at, locale);
}

/** A preset of the menu: its name and the time it means now. */
export interface TimePreset {
  readonly id: string;
  readonly label: string;
  readonly schedule: Schedule;
}

/** The presets every time menu offers: tomorrow at 8:00 and Monday at 8:00 (shared/send-time.ts), and, with `laterToday`, three hours from now. */
export function timePresets(params: { now: number; zone: string; labels: { laterToday?: string; tomorrowMorning: string; mondayMorning: string } }): TimePreset[] {
  const { now, zone, labels } = params;
  const presets = schedulePresets(now, zone);
  return [
    // On the minute after three hours: a time that is surely in the future when it reaches the gateway.
    ...(labels.laterToday ? [{ id: 'later', label: labels.laterToday, schedule: { at: utcToLocal(now + 3 * 3600_000 + 60_000, zone), timeZone: zone } }] : []),
    { id: 'tomorrow', label: labels.tomorrowMorning, schedule: presets.tomorrowMorning },
    { id: 'monday', label: labels.mondayMorning, schedule: presets.mondayMorning },
  ];
}

/**
 * A menu button with the presets and "Pick date and time…", which opens the picker. The
 * picker lives in a portal, outside any form around the button (a composer's), and its keys
 * and submit stay its own: React events bubble through a portal.
 */
export function TimeMenu(props: {
  label: string;
  title: string;
  className: string;
  disabled?: boolean;
  presets: readonly TimePreset[];
  pickLabel: string;
  dialogTitle: string;
  submitLabel: string;
  onChoose: (schedule: Schedule) => void;
  children: ReactNode;
}) {
  const locale = useLocale();
  const [picking, setPicking] = useState(false);
  const entries: MenuEntry[] = [
    ...props.presets.map((preset): MenuEntry => ({ kind: 'item', id: preset.id, label: preset.label, description: scheduleLabel(preset.schedule, locale), icon: 'clock', onSelect: () => props.onChoose(preset.schedule) })),
    { kind: 'separator', id: 'sep' },
    { kind: 'item', id: 'pick', label: props.pickLabel, onSelect: () => setPicking(true) },
  ];
  const zone = props.presets[0]?.schedule.timeZone ?? browserTimeZone();
  return (
    <>
      <MenuButton label={props.label} title={props.title} className={props.className} disabled={props.disabled ?? false} entries={entries}>
        {props.children}
      </MenuButton>
      {picking &&
        createPortal(
          <div onKeyDown={(event) => event.stopPropagation()} onSubmit={(event) => event.stopPropagation()}>
            <PickTimeDialog
              title={props.dialogTitle}
              submitLabel={props.submitLabel}
              zone={zone}
              initial={props.presets.find((preset) => preset.id === 'tomorrow')?.schedule.at ?? utcToLocal(Date.now() + 86_400_000, zone)}
              onClose={() => setPicking(false)}
              onPick={(schedule) => {
                setPicking(false);
                props.onChoose(schedule);
              }}
            />
          </div>,
          document.body,
        )}
    </>
  );
}

export function PickTimeDialog(props: { title: string; submitLabel: string; zone: string; initial: string; onClose: () => void; onPick: (schedule: Schedule) => void }) {
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
    <ModalDialog title={props.title} onClose={props.onClose} className="send-later-dialog">
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
        <FieldError>{error}</FieldError>
        <div className="modal-dialog-actions">
          <button type="button" className="button button-secondary" onClick={props.onClose}>
            {t('scheduled.cancel')}
          </button>
          <button type="submit" className="button button-primary">
            {props.submitLabel}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

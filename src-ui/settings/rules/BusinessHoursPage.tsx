/**
 * Business-hours auto reply (a paid feature: businessAutoReply): working days and hours in a
 * time zone; outside them the server answers with this message. Sieve's `currentdate` knows
 * only fixed offsets, so the gateway writes the rules again when the zone's offset changes
 * (rules-service.ts rewriteForZoneChanges).
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import type { BusinessHours } from '../../../shared/mail-rules';
import { useT, type MessageId } from '../../kit/i18n';
import { useFeature } from '../../state/use-feature';
import { ReplyFields } from './ReplyFields';
import { RulesScope, type RulesPageContext } from './RulesScope';
import { FieldError } from '../../kit/FieldError';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

export default function BusinessHoursPage() {
  const t = useT();
  return <RulesScope intro={t('rules.businessIntro')}>{(context) => <HoursForm key={context.doc.revision} context={context} />}</RulesScope>;
}

/** The browser's zone first, then every zone the browser knows. */
function timeZones(current: string): string[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([current, own, 'UTC', ...known])];
}

function HoursForm({ context }: { context: RulesPageContext }) {
  const t = useT();
  const id = useId();
  const { doc, rules, account, addresses } = context;
  const { allowed, requestPaywall } = useFeature('businessAutoReply', account.accountId);
  const [draft, setDraft] = useState<BusinessHours>(() =>
    doc.rules.businessHours.enabled || doc.rules.businessHours.timeZone !== 'UTC' ? doc.rules.businessHours : { ...doc.rules.businessHours, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
  );
  const zones = useMemo(() => timeZones(draft.timeZone), [draft.timeZone]);
  const backwards = draft.end <= draft.start;
  const noBody = draft.enabled && !draft.body.trim();
  const set = (change: Partial<BusinessHours>) => {
    rules.clearError();
    setDraft((current) => ({ ...current, ...change }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!allowed) return requestPaywall();
    if (backwards || noBody) return;
    void rules.save({ ...doc.rules, businessHours: draft });
  };
  return (
    <form className="settings-sections rules-form" onSubmit={submit} noValidate>
      <label className="settings-switch" htmlFor={`${id}-on`}>
        <input id={`${id}-on`} type="checkbox" role="switch" checked={draft.enabled} onChange={(event) => (allowed ? set({ enabled: event.target.checked }) : requestPaywall())} />
        <span className="settings-switch-text">
          <span>{t('rules.businessOn')}</span>
          <span className="settings-choice-hint">{allowed ? t('rules.addressesUsed', { addresses: addresses.join(', ') }) : t('settings.paywallNotIncluded', { feature: t('settings.featureBusinessAutoReply') })}</span>
        </span>
      </label>
      <fieldset className="settings-group">
        <legend>{t('rules.workDays')}</legend>
        <div className="settings-choices settings-choices-row">
          {WEEKDAYS.map((day) => (
            <label key={day} className="settings-choice rules-weekday">
              <input
                type="checkbox"
                checked={draft.workDays.includes(day)}
                onChange={(event) => set({ workDays: event.target.checked ? [...draft.workDays, day].sort() : draft.workDays.filter((other) => other !== day) })}
              />
              <span>{t(`rules.weekday${day}` as MessageId)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="rules-dates">
        <div>
          <label className="field-label" htmlFor={`${id}-start`}>
            {t('rules.workStart')}
          </label>
          <input id={`${id}-start`} className="input" type="time" value={draft.start} onChange={(event) => event.target.value && set({ start: event.target.value })} />
        </div>
        <div>
          <label className="field-label" htmlFor={`${id}-end`}>
            {t('rules.workEnd')}
          </label>
          <input id={`${id}-end`} className="input" type="time" value={draft.end} aria-invalid={backwards} onChange={(event) => event.target.value && set({ end: event.target.value })} />
        </div>
      </div>
      <FieldError>{backwards && t('rules.hoursBackwards')}</FieldError>
      <div>
        <label className="field-label" htmlFor={`${id}-zone`}>
          {t('rules.timeZone')}
        </label>
        <select id={`${id}-zone`} className="input settings-select" value={draft.timeZone} aria-describedby={`${id}-zone-hint`} onChange={(event) => set({ timeZone: event.target.value })}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
        <p id={`${id}-zone-hint`} className="field-hint">
          {t('rules.timeZoneHint')}
        </p>
      </div>
      <ReplyFields id={id} value={draft} rows={6} bodyMissing={noBody} onChange={set} />
      <div>
        <button type="submit" className="button button-primary" disabled={rules.saving || backwards || noBody}>
          {rules.saving ? t('rules.saving') : t('rules.save')}
        </button>
      </div>
    </form>
  );
}

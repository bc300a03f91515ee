/**
 * The subject and message of an automatic answer, with the "say something" check: the auto
 * reply and the business-hours reply ask for the same two fields, so both pages use this.
 */
import { useT } from '../../kit/i18n';
import { FieldError } from '../../kit/FieldError';

export interface ReplyText {
  readonly subject: string;
  readonly body: string;
}

export function ReplyFields({ id, value, rows, bodyMissing, onChange }: { id: string; value: ReplyText; rows: number; bodyMissing: boolean; onChange: (change: Partial<ReplyText>) => void }) {
  const t = useT();
  return (
    <>
      <div>
        <label className="field-label" htmlFor={`${id}-subject`}>
          {t('rules.subject')}
        </label>
        {/* One line: the subject becomes a header (the schema refuses line breaks). */}
        <input id={`${id}-subject`} className="input" maxLength={200} placeholder={t('rules.subjectPlaceholder')} value={value.subject} onChange={(event) => onChange({ subject: event.target.value.replace(/[\r\n]/g, ' ') })} />
      </div>
      <div>
        <label className="field-label" htmlFor={`${id}-body`}>
          {t('rules.message')}
        </label>
        <textarea id={`${id}-body`} className="input rules-body" rows={rows} maxLength={20_000} aria-invalid={bodyMissing} value={value.body} onChange={(event) => onChange({ body: event.target.value })} />
        <FieldError>{bodyMissing && t('rules.bodyRequired')}</FieldError>
      </div>
    </>
  );
}

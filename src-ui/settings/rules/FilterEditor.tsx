/**
 * One filter's form: name, all/any, its conditions and actions (each row a field and what it
 * needs), Save and Cancel. The draft is checked with the contract's schema before it is sent,
 * so an empty value is pointed out here; the server's refusal comes back through the page.
 */
import { useId, useState, type FormEvent } from 'react';
import { mailFilterSchema, MATCH_OPS, type ConditionField, type ActionKind, type MailFilter, type RuleAction, type RuleCondition } from '../../../shared/mail-rules';
import { Icon } from '../../kit/icons';
import { useT } from '../../kit/i18n';
import { ACTION_KINDS, ACTION_LABELS, CONDITION_FIELDS, defaultAction, defaultCondition, FIELD_LABELS, OP_LABELS } from './filter-model';
import { FieldError } from '../../kit/FieldError';

interface EditorProps {
  readonly initial: MailFilter;
  /** The account's folder paths (the move action's choices). */
  readonly folders: readonly string[];
  readonly saving: boolean;
  onSave(filter: MailFilter): void;
  onCancel(): void;
}

export function FilterEditor({ initial, folders, saving, onSave, onCancel }: EditorProps) {
  const t = useT();
  const id = useId();
  const [draft, setDraft] = useState<MailFilter>(initial);
  const [invalid, setInvalid] = useState(false);
  const setCondition = (index: number, condition: RuleCondition) => setDraft({ ...draft, conditions: draft.conditions.map((c, i) => (i === index ? condition : c)) });
  const setAction = (index: number, action: RuleAction) => setDraft({ ...draft, actions: draft.actions.map((a, i) => (i === index ? action : a)) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = mailFilterSchema.safeParse(draft);
    setInvalid(!parsed.success);
    if (parsed.success) onSave(parsed.data);
  };
  return (
    <form className="settings-group rules-editor" onSubmit={submit} aria-labelledby={`${id}-name-label`}>
      <label id={`${id}-name-label`} className="field-label" htmlFor={`${id}-name`}>
        {t('rules.filterName')}
      </label>
      <input id={`${id}-name`} className="input" value={draft.name} maxLength={200} placeholder={t('rules.filterNamePlaceholder')} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />

      <fieldset className="rules-block">
        <legend>{t('rules.conditions')}</legend>
        <select className="input rules-match" aria-label={t('rules.conditions')} value={draft.match} onChange={(event) => setDraft({ ...draft, match: event.target.value as MailFilter['match'] })}>
          <option value="all">{t('rules.matchAll')}</option>
          <option value="any">{t('rules.matchAny')}</option>
        </select>
        {draft.conditions.map((condition, index) => (
          <div key={index} className="rules-row">
            <select className="input" aria-label={t('rules.conditionField')} value={condition.field} onChange={(event) => setCondition(index, defaultCondition(event.target.value as ConditionField))}>
              {CONDITION_FIELDS.map((field) => (
                <option key={field} value={field}>
                  {t(FIELD_LABELS[field])}
                </option>
              ))}
            </select>
            <ConditionInputs condition={condition} onChange={(next) => setCondition(index, next)} />
            <button type="button" className="icon-button" aria-label={t('rules.remove')} title={t('rules.remove')} disabled={draft.conditions.length === 1} onClick={() => setDraft({ ...draft, conditions: draft.conditions.filter((_, i) => i !== index) })}>
              <Icon name="close" size={16} />
            </button>
          </div>
        ))}
        <button type="button" className="button button-secondary rules-add" onClick={() => setDraft({ ...draft, conditions: [...draft.conditions, defaultCondition('subject')] })}>
          <Icon name="plus" size={16} />
          <span>{t('rules.addCondition')}</span>
        </button>
      </fieldset>

      <fieldset className="rules-block">
        <legend>{t('rules.actions')}</legend>
        {draft.actions.map((action, index) => (
          <div key={index} className="rules-row">
            <select className="input" aria-label={t('rules.actionKind')} value={action.kind} onChange={(event) => setAction(index, defaultAction(event.target.value as ActionKind, folders))}>
              {ACTION_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {t(ACTION_LABELS[kind])}
                </option>
              ))}
            </select>
            <ActionInputs action={action} folders={folders} onChange={(next) => setAction(index, next)} />
            <button type="button" className="icon-button" aria-label={t('rules.remove')} title={t('rules.remove')} disabled={draft.actions.length === 1} onClick={() => setDraft({ ...draft, actions: draft.actions.filter((_, i) => i !== index) })}>
              <Icon name="close" size={16} />
            </button>
          </div>
        ))}
        <button type="button" className="button button-secondary rules-add" onClick={() => setDraft({ ...draft, actions: [...draft.actions, defaultAction('markRead', folders)] })}>
          <Icon name="plus" size={16} />
          <span>{t('rules.addAction')}</span>
        </button>
      </fieldset>

      <FieldError>{invalid && t('rules.conditionMissing')}</FieldError>
      <div className="settings-inline rules-buttons">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? t('rules.saving') : t('rules.save')}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('rules.cancel')}
        </button>
      </div>
    </form>
  );
}

function ConditionInputs({ condition, onChange }: { condition: RuleCondition; onChange: (next: RuleCondition) => void }) {
  const t = useT();
  if (condition.field === 'hasAttachment') return <span className="rules-spacer" />;
  if (condition.field === 'size') {
    return (
      <>
        <select className="input" aria-label={t('rules.conditionOp')} value={condition.op} onChange={(event) => onChange({ ...condition, op: event.target.value as 'over' | 'under' })}>
          <option value="over">{t(OP_LABELS.over)}</option>
          <option value="under">{t(OP_LABELS.under)}</option>
        </select>
        <input className="input" type="number" min={1} aria-label={t('rules.value')} value={condition.kilobytes} onChange={(event) => onChange({ ...condition, kilobytes: Math.max(1, Math.round(Number(event.target.value) || 1)) })} />
      </>
    );
  }
  return (
    <>
      {condition.field === 'header' && (
        <input className="input" aria-label={t('rules.headerName')} placeholder={t('rules.headerName')} value={condition.name} onChange={(event) => onChange({ ...condition, name: event.target.value.trim() })} />
      )}
      <select className="input" aria-label={t('rules.conditionOp')} value={condition.op} onChange={(event) => onChange({ ...condition, op: event.target.value as (typeof MATCH_OPS)[number] })}>
        {MATCH_OPS.map((op) => (
          <option key={op} value={op}>
            {t(OP_LABELS[op])}
          </option>
        ))}
      </select>
      <input className="input" aria-label={t('rules.value')} placeholder={t('rules.value')} value={condition.value} onChange={(event) => onChange({ ...condition, value: event.target.value })} />
    </>
  );
}

function ActionInputs({ action, folders, onChange }: { action: RuleAction; folders: readonly string[]; onChange: (next: RuleAction) => void }) {
  const t = useT();
  if (action.kind === 'move') {
    return (
      <select className="input" aria-label={t('rules.folder')} value={action.folder} onChange={(event) => onChange({ kind: 'move', folder: event.target.value })}>
        {folders.map((folder) => (
          <option key={folder} value={folder}>
            {folder}
          </option>
        ))}
      </select>
    );
  }
  if (action.kind === 'label') return <input className="input" aria-label={t('rules.labelKeyword')} placeholder={t('rules.labelKeyword')} value={action.keyword} onChange={(event) => onChange({ kind: 'label', keyword: event.target.value.trim() })} />;
  if (action.kind === 'forward') return <input className="input" type="email" aria-label={t('rules.forwardAddress')} placeholder={t('rules.forwardAddress')} value={action.address} onChange={(event) => onChange({ kind: 'forward', address: event.target.value })} />;
  return <span className="rules-spacer" />;
}

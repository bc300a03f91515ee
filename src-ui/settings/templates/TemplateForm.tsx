/**
 * One template as written in Settings → Templates (or saved from the composer): a name, a
 * subject and the body in the composer's own editor. The body is kept sanitised like a
 * signature (prepareSignatureHtml); its size is counted as it is typed, and one over
 * MAX_TEMPLATE_CHARS is refused (TemplateTooLarge) with everything typed still in the form.
 */
import { useId, useRef, useState } from 'react';
import { TernError } from '../../../shared/errors';
import { MAX_TEMPLATE_CHARS, TEMPLATE_VARIABLES, type Template } from '../../../shared/templates';
import { prepareSignatureHtml, RichTextEditor, type RichTextEditorHandle } from '../../composer';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useFeature } from '../../state/use-feature';
import { FieldError } from '../../kit/FieldError';

export const VARIABLE_LIST = TEMPLATE_VARIABLES.map((name) => `{{${name}}}`).join(', ');

export function TemplateForm(props: { accountId: string; template: Template | null; onDone: () => void; onCancel: () => void }) {
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const { allowed, requestPaywall } = useFeature('templates', props.accountId);
  const editor = useRef<RichTextEditorHandle>(null);
  const [name, setName] = useState(props.template?.name ?? '');
  const [subject, setSubject] = useState(props.template?.subject ?? '');
  const [length, setLength] = useState(props.template?.bodyHtml.length ?? 0);
  const [state, setState] = useState<{ kind: 'idle' | 'saving' } | { kind: 'failed'; reason: string; field?: string }>({ kind: 'idle' });
  const over = length > MAX_TEMPLATE_CHARS;
  const save = async () => {
    if (!allowed) return requestPaywall();
    setState({ kind: 'saving' });
    try {
      const bodyHtml = prepareSignatureHtml(editor.current?.html() ?? '');
      await actions.saveTemplate({ accountId: props.accountId, ...(props.template ? { templateId: props.template.id } : {}), template: { name, subject, bodyHtml } });
      actions.toast({ tone: 'info', message: { id: 'writing.templateSaved' } });
      props.onDone();
    } catch (cause) {
      const error = TernError.from(cause);
      if (error.name === 'FeatureNotInPlan') requestPaywall();
      const field = Array.isArray(error.detail) ? (error.detail[0] as { path?: string } | undefined)?.path : undefined;
      // The schema's own sentence for a missing name ("A template needs a name.") says more than the catalogue's.
      const reason = field === 'name' ? t('writing.templateName') + ': ' + String((error.detail as { message: string }[])[0]?.message ?? '') : errorText(t, error);
      setState({ kind: 'failed', reason, ...(field ? { field } : {}) });
    }
  };
  const title = props.template ? props.template.name : t('writing.newTemplate');
  return (
    <form
      className="settings-group identity-form template-form"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="field">
        <label className="field-label" htmlFor={`${id}-name`}>
          {t('writing.templateName')}
        </label>
        <input id={`${id}-name`} className="input" value={name} maxLength={100} aria-invalid={state.kind === 'failed' && state.field === 'name'} onChange={(event) => setName(event.target.value)} autoFocus={!props.template} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-subject`}>
          {t('writing.templateSubject')}
        </label>
        <input id={`${id}-subject`} className="input" value={subject} maxLength={998} aria-describedby={`${id}-subject-hint`} onChange={(event) => setSubject(event.target.value)} />
        <p id={`${id}-subject-hint`} className="field-hint">
          {t('writing.templateSubjectHint')}
        </p>
      </div>
      <div className="signature-editor">
        <RichTextEditor
          handleRef={editor}
          initialHtml={props.template?.bodyHtml ?? ''}
          label={t('writing.templateBody')}
          onInput={() => {
            setLength(prepareSignatureHtml(editor.current?.html() ?? '').length);
            setState({ kind: 'idle' });
          }}
        />
      </div>
      <p className={`field-hint${over ? ' signature-count-over' : ''}`} aria-live="polite">
        {t(over ? 'writing.templateTooLong' : 'writing.templateCount', { count: length, limit: MAX_TEMPLATE_CHARS })} {t('writing.templatesVariables', { variables: VARIABLE_LIST })}
      </p>
      <FieldError>{state.kind === 'failed' && t('writing.templateNotSaved', { reason: state.reason })}</FieldError>
      <div className="identity-actions">
        <button type="submit" className="button button-primary" disabled={state.kind === 'saving'}>
          {state.kind === 'saving' ? t('writing.saving') : t('writing.save')}
        </button>
        <button type="button" className="button button-secondary" onClick={props.onCancel}>
          {t('writing.cancel')}
        </button>
      </div>
    </form>
  );
}

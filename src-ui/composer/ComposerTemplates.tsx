/**
 * The composer's Templates menu (issue 14 point 3): insert one of the From account's
 * templates at the caret (its subject too, when the message has none), with its variables
 * filled from the first recipient (shared/templates.ts, escaped); "Save as template…" keeps
 * the message's subject and body as a new template; "Insert HTML…" puts a pasted block of
 * HTML at the caret, cleaned by the mail pipeline (a paid feature: insertHtml). Ctrl+Shift+Y
 * opens the menu from the keyboard. A template whose variables have no value for this
 * message is not inserted half-filled: the notice says which (TemplateVariableMissing) and
 * offers to insert it with them left empty.
 */
import { useId, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { TernError } from '../../shared/errors';
import type { Feature } from '../../shared/plans';
import { fillTemplate, type Template, type TemplateDraft } from '../../shared/templates';
import { Icon } from '../kit/icons';
import { errorText, useT } from '../kit/i18n';
import { MenuButton, type MenuEntry } from '../kit/Menu';
import { ModalDialog } from '../kit/ModalDialog';
import type { ComposerNoticeText } from './ComposerNotice';
import type { RichTextEditorHandle } from './RichTextEditor';
import { prepareSignatureHtml } from './signature-html';
import { FieldError } from '../kit/FieldError';

/** What the host gives the composer's writing tools (absent: no Templates menu). */
export interface ComposerWriting {
  readonly templatesOf: (accountId: string) => readonly Template[];
  readonly saveTemplate: (params: { accountId: string; template: TemplateDraft }) => Promise<unknown>;
  readonly allowed: (feature: Feature, accountId: string) => boolean;
  readonly requestPaywall: (feature: Feature) => void;
}

export function ComposerTemplates(props: {
  writing: ComposerWriting;
  accountId: string;
  editor: RefObject<RichTextEditorHandle | null>;
  subject: string;
  onSubject: (subject: string) => void;
  recipient: { name: string; email: string } | undefined;
  senderName: string;
  onNotice: (notice: ComposerNoticeText | null) => void;
  /** Bumped by Ctrl+Shift+Y. */
  openSignal: number;
}) {
  const t = useT();
  const { writing, accountId, editor } = props;
  const [dialog, setDialog] = useState<'save' | 'html' | null>(null);
  const templates = writing.templatesOf(accountId);

  const insert = (template: Template, blanks = false) => {
    const { filled, missing } = fillTemplate(template, { ...(props.recipient ? { recipient: props.recipient } : {}), senderName: props.senderName }, { blanks });
    if (!filled) {
      props.onNotice({
        kind: 'error',
        text: `${errorText(t, new TernError('TemplateVariableMissing', { detail: { variables: missing } }))} ${t('writing.missingFields', { fields: missing.map((name) => `{{${name}}}`).join(', ') })}`,
        action: { label: t('writing.insertWithBlanks'), run: () => insert(template, true) },
      });
      return;
    }
    props.onNotice(null);
    if (props.subject.trim() === '' && filled.subject) props.onSubject(filled.subject);
    editor.current?.insertHtml(filled.bodyHtml);
  };
  const gated = (feature: Feature, open: () => void) => () => (writing.allowed(feature, accountId) ? open() : writing.requestPaywall(feature));

  const entries: MenuEntry[] = [
    ...(templates.length === 0
      ? [{ kind: 'item' as const, id: 'none', label: t('writing.noTemplatesInMenu'), disabled: true, onSelect: () => undefined }]
      : templates.map((template) => ({ kind: 'item' as const, id: `t-${template.id}`, label: template.name, ...(template.subject ? { description: template.subject } : {}), icon: 'template' as const, onSelect: () => insert(template) }))),
    { kind: 'separator', id: 'sep' },
    { kind: 'item', id: 'save', label: t('writing.saveAsTemplate'), onSelect: gated('templates', () => setDialog('save')) },
    { kind: 'item', id: 'html', label: t('writing.insertHtml'), onSelect: gated('insertHtml', () => setDialog('html')) },
  ];
  return (
    <>
      <MenuButton label={t('writing.templates')} title={t('writing.templatesMenu')} className="tern-icon-button tern-templates" entries={entries} openSignal={props.openSignal} returnFocusAfterSignal={() => editor.current?.focus()}>
        <Icon name="template" />
      </MenuButton>
      {dialog &&
        // Outside the composer's form (no form inside a form); its keys and submit stay its own (React events bubble through a portal).
        createPortal(
          <div onKeyDown={(event) => event.stopPropagation()} onSubmit={(event) => event.stopPropagation()}>
            {dialog === 'save' ? (
              <SaveTemplateDialog
                onClose={() => setDialog(null)}
                onSave={(name) => writing.saveTemplate({ accountId, template: { name, subject: props.subject, bodyHtml: prepareSignatureHtml(editor.current?.html() ?? '') } })}
              />
            ) : (
              <InsertHtmlDialog
                onClose={() => setDialog(null)}
                onInsert={(html) => {
                  setDialog(null);
                  editor.current?.insertHtml(html);
                }}
              />
            )}
          </div>,
          document.body,
        )}
    </>
  );
}

function SaveTemplateDialog(props: { onClose: () => void; onSave: (name: string) => Promise<unknown> }) {
  const t = useT();
  const id = useId();
  const [name, setName] = useState('');
  const [state, setState] = useState<{ kind: 'idle' | 'saving' } | { kind: 'failed'; reason: string }>({ kind: 'idle' });
  const submit = async () => {
    setState({ kind: 'saving' });
    try {
      await props.onSave(name);
      props.onClose();
    } catch (cause) {
      const error = TernError.from(cause);
      const detail = Array.isArray(error.detail) ? (error.detail[0] as { message?: string } | undefined)?.message : undefined;
      setState({ kind: 'failed', reason: detail ?? errorText(t, error) });
    }
  };
  return (
    <ModalDialog title={t('writing.saveAsTemplateTitle')} onClose={props.onClose} busy={state.kind === 'saving'}>
      <form
        className="modal-dialog-body"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <label className="field-label" htmlFor={id}>
          {t('writing.templateName')}
        </label>
        <input id={id} className="input" value={name} maxLength={100} autoFocus aria-invalid={state.kind === 'failed' || undefined} onChange={(event) => setName(event.target.value)} />
        <FieldError>{state.kind === 'failed' && t('writing.templateNotSaved', { reason: state.reason })}</FieldError>
        <div className="modal-dialog-actions">
          <button type="button" className="button button-secondary" onClick={props.onClose}>
            {t('writing.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={state.kind === 'saving'}>
            {state.kind === 'saving' ? t('writing.saving') : t('writing.save')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

function InsertHtmlDialog(props: { onClose: () => void; onInsert: (html: string) => void }) {
  const t = useT();
  const id = useId();
  const [html, setHtml] = useState('');
  return (
    <ModalDialog title={t('writing.insertHtmlTitle')} onClose={props.onClose}>
      <form
        className="modal-dialog-body"
        onSubmit={(event) => {
          event.preventDefault();
          props.onInsert(html);
        }}
      >
        <label className="field-label" htmlFor={id}>
          {t('writing.insertHtmlLabel')}
        </label>
        <textarea id={id} className="input insert-html-input" rows={8} value={html} autoFocus aria-describedby={`${id}-hint`} onChange={(event) => setHtml(event.target.value)} />
        <p id={`${id}-hint`} className="field-hint">
          {t('writing.insertHtmlHint')}
        </p>
        <div className="modal-dialog-actions">
          <button type="button" className="button button-secondary" onClick={props.onClose}>
            {t('writing.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={html.trim() === ''}>
            {t('writing.insert')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

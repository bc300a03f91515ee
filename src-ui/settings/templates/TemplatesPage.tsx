/**
 * Templates (issue 14 point 3; a paid feature: templates): per account, the templates the
 * composer offers — created, edited and deleted here (TemplateForm), each change on the
 * gateway first, then in every tab and device. A lapsed plan still lists and deletes them.
 */
import { useState } from 'react';
import { TernError } from '../../../shared/errors';
import type { Template } from '../../../shared/templates';
import { ComposerStyle } from '../../composer';
import { Icon } from '../../kit/icons';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useFeature } from '../../state/use-feature';
import { useAccountsWithSettings, type AccountWithSettings } from '../settings-hooks';
import { TemplateForm } from './TemplateForm';

function TemplateRow({ accountId, template, onEdit }: { accountId: string; template: Template; onEdit: () => void }) {
  const t = useT();
  const actions = useMailActions();
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await actions.deleteTemplate({ accountId, templateId: template.id });
      actions.toast({ tone: 'info', message: { id: 'writing.templateDeleted', values: { name: template.name } } });
    } catch (cause) {
      actions.toast({ tone: 'error', message: t('writing.templateNotDeleted', { reason: errorText(t, TernError.from(cause)) }) });
      setBusy(false);
    }
  };
  return (
    <li className="template-row">
      <div className="template-row-text">
        <span className="template-row-name">{template.name}</span>
        {template.subject && <span className="template-row-subject">{template.subject}</span>}
      </div>
      <button type="button" className="button button-secondary" aria-label={`${t('writing.editTemplate')}: ${template.name}`} onClick={onEdit}>
        {t('writing.editTemplate')}
      </button>
      <button type="button" className="button button-secondary" aria-label={`${t('writing.deleteTemplate')}: ${template.name}`} disabled={busy} onClick={() => void remove()}>
        {t('writing.deleteTemplate')}
      </button>
    </li>
  );
}

function AccountTemplates({ entry }: { entry: AccountWithSettings }) {
  const t = useT();
  const { account } = entry;
  const { allowed, requestPaywall } = useFeature('templates', account.accountId);
  /** The template being edited: its id, 'new', or none. */
  const [editing, setEditing] = useState<string | null>(null);
  const templates = entry.settings?.templates ?? [];
  const heading = t('writing.templatesFor', { email: account.emailAddress });
  return (
    <section className="settings-sections" aria-label={heading}>
      <h3 className="identity-account">{heading}</h3>
      {templates.length === 0 && editing === null && <p className="identity-empty">{t('writing.noTemplates')}</p>}
      <ul className="template-list">
        {templates.map((template) =>
          editing === template.id ? (
            <li key={template.id}>
              {/* Keyed by its version: the editor starts again from what another tab or device saved. */}
              <TemplateForm key={template.updatedAt} accountId={account.accountId} template={template} onDone={() => setEditing(null)} onCancel={() => setEditing(null)} />
            </li>
          ) : (
            <TemplateRow key={template.id} accountId={account.accountId} template={template} onEdit={() => (allowed ? setEditing(template.id) : requestPaywall())} />
          ),
        )}
      </ul>
      {editing === 'new' ? (
        <TemplateForm accountId={account.accountId} template={null} onDone={() => setEditing(null)} onCancel={() => setEditing(null)} />
      ) : (
        <button type="button" className="button button-secondary identity-add" onClick={() => (allowed ? setEditing('new') : requestPaywall())}>
          <Icon name="plus" size={16} />
          {t('writing.newTemplate')}
        </button>
      )}
    </section>
  );
}

export default function TemplatesPage() {
  const t = useT();
  const accounts = useAccountsWithSettings();
  return (
    <div className="settings-sections">
      <ComposerStyle />
      <p className="settings-intro">{t('writing.templatesIntro')}</p>
      {accounts.map((entry) => (
        <AccountTemplates key={entry.account.accountId} entry={entry} />
      ))}
    </div>
  );
}

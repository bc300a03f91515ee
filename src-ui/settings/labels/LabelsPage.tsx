/**
 * Settings → Labels (issue 17 point 1): each account's labels — create, rename, recolour,
 * delete — with what they are (IMAP keywords other programs see), the limits, and a note
 * when the account's server keeps no new keywords. Gated by the plan's `labels`: without it
 * a change shows the paywall, as the gateway would refuse it (FeatureNotInPlan). Refusals
 * (an empty, too long or taken name, the limit) show in the catalogue's words, in place,
 * and what was typed stays.
 */
import { useId, useState, type FormEvent } from 'react';
import type { PublicAccount } from '../../../shared/account';
import { TernError } from '../../../shared/errors';
import { LABEL_COLORS, LABEL_LIMITS, sortLabels, type Label, type LabelColor } from '../../../shared/labels';
import type { AccountSettings } from '../../../shared/worker-api';
import { errorText, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useFeature } from '../../state/use-feature';
import { useAccountsWithSettings } from '../settings-hooks';
import { FieldError } from '../../kit/FieldError';
import './labels-page.css';

/** Runs a change; a refusal becomes the sentence to show (the paywall instead for FeatureNotInPlan). */
function useLabelChange(accountId: string) {
  const t = useT();
  const { allowed, requestPaywall } = useFeature('labels', accountId);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    if (!allowed) return (requestPaywall(), false);
    setBusy(true);
    try {
      await work();
      return true;
    } catch (cause) {
      const refused = TernError.from(cause);
      if (refused.name === 'FeatureNotInPlan') requestPaywall();
      else setError(errorText(t, refused));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy };
}

function ColorChoice({ value, onChange, name, legend }: { value: LabelColor; onChange: (color: LabelColor) => void; name: string; legend: string }) {
  const t = useT();
  return (
    <fieldset className="label-colors">
      <legend className="visually-hidden">{legend}</legend>
      {LABEL_COLORS.map((color) => (
        <label key={color} className="label-color" data-label-color={color} title={t('labels.colorName', { color })}>
          <input type="radio" name={name} value={color} checked={value === color} onChange={() => onChange(color)} aria-label={t('labels.colorName', { color })} />
          <span className="label-dot" />
        </label>
      ))}
    </fieldset>
  );
}

function LabelRow({ accountId, label }: { accountId: string; label: Label }) {
  const t = useT();
  const actions = useMailActions();
  const { run, error, busy } = useLabelChange(accountId);
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const name = useId();
  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (editing === null) return;
    if (await run(() => actions.updateLabel({ accountId, labelId: label.id, name: editing }))) setEditing(null);
  };
  return (
    <li className="label-row">
      <div className="label-row-main">
        {editing === null ? (
          <span className="label-chip label-row-name" data-label-color={label.color}>
            {label.name}
          </span>
        ) : (
          <form className="settings-inline label-rename" onSubmit={rename}>
            <input className="input" aria-label={`${t('labels.rename')}: ${label.name}`} value={editing} autoFocus aria-invalid={Boolean(error)} onChange={(event) => setEditing(event.target.value)} />
            <button type="submit" className="button button-primary" disabled={busy}>
              {t('labels.save')}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setEditing(null)}>
              {t('labels.cancel')}
            </button>
          </form>
        )}
        {editing === null && !confirming && (
          <span className="label-row-actions" role="group" aria-label={t('labels.actionsFor', { name: label.name })}>
            <ColorChoice value={label.color} name={name} legend={`${t('labels.color')}: ${label.name}`} onChange={(color) => void run(() => actions.updateLabel({ accountId, labelId: label.id, color }))} />
            <button type="button" className="button button-secondary" onClick={() => setEditing(label.name)}>
              {t('labels.rename')}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setConfirming(true)}>
              {t('labels.delete')}
            </button>
          </span>
        )}
      </div>
      {confirming && (
        <div className="label-confirm" role="group" aria-label={t('labels.delete')}>
          <p>{t('labels.deleteConfirm', { name: label.name })}</p>
          <div className="settings-inline">
            <button type="button" className="button button-danger" disabled={busy} onClick={() => void run(() => actions.removeLabel({ accountId, labelId: label.id })).then((done) => done || setConfirming(false))}>
              {t('labels.delete')}
            </button>
            <button type="button" className="button button-secondary" autoFocus onClick={() => setConfirming(false)}>
              {t('labels.cancel')}
            </button>
          </div>
        </div>
      )}
      <FieldError>{error}</FieldError>
    </li>
  );
}

function NewLabel({ accountId }: { accountId: string }) {
  const t = useT();
  const actions = useMailActions();
  const { run, error, busy } = useLabelChange(accountId);
  const [name, setName] = useState('');
  const [color, setColor] = useState<LabelColor>('blue');
  const id = useId();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    // What was typed stays when refused (an empty, long or taken name): the person fixes it.
    if (await run(() => actions.createLabel({ accountId, name, color }))) setName('');
  };
  return (
    <form className="settings-group label-new" onSubmit={create} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="rules-subtitle">
        {t('labels.newLabel')}
      </h3>
      <div className="settings-inline">
        <input className="input" aria-label={t('labels.name')} placeholder={t('labels.name')} value={name} aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined} onChange={(event) => setName(event.target.value)} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('labels.creating') : t('labels.create')}
        </button>
      </div>
      <ColorChoice value={color} onChange={setColor} name={`${id}-color`} legend={t('labels.color')} />
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </form>
  );
}

function AccountLabels({ account, settings }: { account: PublicAccount; settings: AccountSettings | undefined }) {
  const t = useT();
  const labels = sortLabels(settings?.labels ?? []);
  return (
    <section className="settings-group" aria-label={account.emailAddress}>
      {settings?.serverKeepsLabels === false && <p className="settings-notice">{t('labels.notKept')}</p>}
      {labels.length === 0 ? (
        <p className="field-hint">{t('labels.none')}</p>
      ) : (
        <ul className="label-list">
          {labels.map((label) => (
            <LabelRow key={label.id} accountId={account.accountId} label={label} />
          ))}
        </ul>
      )}
      <NewLabel accountId={account.accountId} />
    </section>
  );
}

export default function LabelsPage() {
  const t = useT();
  const accounts = useAccountsWithSettings();
  const id = useId();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const shown = accounts.find(({ account }) => account.accountId === chosen) ?? accounts[0];
  return (
    <div className="settings-sections">
      <p className="settings-intro">{t('labels.intro')}</p>
      <p className="settings-intro">{t('labels.limits', { count: LABEL_LIMITS.perAccount, length: LABEL_LIMITS.nameLength })}</p>
      {accounts.length > 1 && (
        <div className="settings-group">
          <label className="field-label" htmlFor={id}>
            {t('labels.account')}
          </label>
          <select id={id} className="input settings-select" value={shown?.account.accountId ?? ''} onChange={(event) => setChosen(event.target.value)}>
            {accounts.map(({ account }) => (
              <option key={account.accountId} value={account.accountId}>
                {account.emailAddress}
              </option>
            ))}
          </select>
        </div>
      )}
      {shown && <AccountLabels key={shown.account.accountId} account={shown.account} settings={shown.settings} />}
    </div>
  );
}

/**
 * Blocklist and allowlist (a paid feature: allowBlockLists): senders and domains whose mail
 * goes to Spam (or is deleted), and senders never blocked, whose remote images show (the
 * allowlist feeds the same trust as "Always show images from this sender").
 */
import { useId, useState, type FormEvent } from 'react';
import { senderEntrySchema, type MailRules } from '../../../shared/mail-rules';
import { Icon } from '../../kit/icons';
import { useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { useFeature } from '../../state/use-feature';
import { RulesScope, type RulesPageContext } from './RulesScope';
import { FieldError } from '../../kit/FieldError';

export default function AllowBlockPage() {
  const t = useT();
  return <RulesScope intro={t('rules.blockIntro')}>{(context) => <Lists context={context} />}</RulesScope>;
}

function Lists({ context }: { context: RulesPageContext }) {
  const t = useT();
  const actions = useMailActions();
  const { doc, rules, account } = context;
  const { allowed: inPlan, requestPaywall } = useFeature('allowBlockLists', account.accountId);
  const save = async (next: MailRules) => {
    if (!inPlan) return requestPaywall();
    if (await rules.save(next)) {
      // Allowed senders are trusted for remote images (addresses only: the trust is per address).
      for (const entry of next.allowed) if (entry.includes('@') && !doc.rules.allowed.includes(entry)) actions.trustSender(entry);
    }
  };
  const blockActionName = useId();
  return (
    <>
      <SenderList
        title={t('rules.blocked')}
        addLabel={t('rules.addBlocked')}
        entries={doc.rules.blocked}
        disabled={rules.saving}
        onChange={(blocked) => void save({ ...doc.rules, blocked, allowed: doc.rules.allowed.filter((entry) => !blocked.includes(entry)) })}
      />
      <fieldset className="settings-group">
        <legend>{t('rules.blockAction')}</legend>
        <div className="settings-choices">
          {(['spam', 'discard'] as const).map((choice) => (
            <label key={choice} className="settings-choice">
              <input type="radio" name={blockActionName} checked={doc.rules.blockAction === choice} disabled={rules.saving} onChange={() => void save({ ...doc.rules, blockAction: choice })} />
              <span>{t(choice === 'spam' ? 'rules.blockToSpam' : 'rules.blockDiscard')}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <SenderList
        title={t('rules.allowed')}
        addLabel={t('rules.addAllowed')}
        entries={doc.rules.allowed}
        disabled={rules.saving}
        onChange={(allowed) => void save({ ...doc.rules, allowed, blocked: doc.rules.blocked.filter((entry) => !allowed.includes(entry)) })}
      />
    </>
  );
}

function SenderList({ title, addLabel, entries, disabled, onChange }: { title: string; addLabel: string; entries: readonly string[]; disabled: boolean; onChange: (next: string[]) => void }) {
  const t = useT();
  const id = useId();
  const [typed, setTyped] = useState('');
  const [invalid, setInvalid] = useState(false);
  const add = (event: FormEvent) => {
    event.preventDefault();
    const parsed = senderEntrySchema.safeParse(typed);
    setInvalid(!parsed.success);
    if (!parsed.success) return;
    if (!entries.includes(parsed.data)) onChange([...entries, parsed.data]);
    setTyped('');
  };
  return (
    <section className="settings-group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="rules-subtitle">
        {title}
      </h3>
      {entries.length === 0 ? (
        <p className="field-hint">{t('rules.noneListed')}</p>
      ) : (
        <ul className="rules-senders">
          {entries.map((entry) => (
            <li key={entry} className="rules-sender">
              <span>{entry}</span>
              <button type="button" className="icon-button" aria-label={`${t('rules.remove')}: ${entry}`} title={t('rules.remove')} disabled={disabled} onClick={() => onChange(entries.filter((other) => other !== entry))}>
                <Icon name="close" size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="settings-inline rules-add-sender" onSubmit={add}>
        <input
          className="input"
          aria-label={title}
          aria-invalid={invalid}
          placeholder={t('rules.senderPlaceholder')}
          value={typed}
          onChange={(event) => {
            setTyped(event.target.value);
            setInvalid(false);
          }}
        />
        <button type="submit" className="button button-secondary" disabled={disabled || !typed.trim()}>
          {addLabel}
        </button>
      </form>
      <FieldError>{invalid && t('rules.invalidSender')}</FieldError>
    </section>
  );
}

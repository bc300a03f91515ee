/** The composer's header fields: From (a choice when there are several accounts or identities), To with the Cc and Bcc toggles, Cc, Bcc and Subject. */
import type { SuggestedAddress } from '../../shared/worker-mail-api';
import type { RefObject } from 'react';
import type { Address } from '../../shared/api/mail';
import type { ComposerAccount } from './composer-props';
import type { ComposerInitial } from './compose-initial';
import { fromKey, fromLabel } from './from-choices';
import { RecipientField } from './RecipientField';
import type { RecipientChip } from './recipients';
import { useT } from '../kit/i18n';

export type RecipientKind = 'to' | 'cc' | 'bcc';

export interface ComposerFieldsProps {
  readonly titleId: string;
  readonly initial: ComposerInitial;
  readonly accounts: readonly ComposerAccount[];
  /** The chosen From (fromKey). */
  readonly from: string;
  readonly onFromChange: (key: string) => void;
  /** The chips of each recipient field, and the text typed there that is not a chip yet. */
  readonly chips: Readonly<Record<RecipientKind, RecipientChip[]>>;
  readonly pending: Readonly<Record<RecipientKind, string>>;
  readonly onChipsChange: (kind: RecipientKind) => (chips: RecipientChip[]) => void;
  readonly onPendingChange: (kind: RecipientKind) => (text: string) => void;
  readonly suggest: (prefix: string) => Promise<readonly SuggestedAddress[]>;
  readonly forgetSuggestion?: (email: string) => void;
  readonly toInput: RefObject<HTMLInputElement | null>;
  readonly subject: string;
  readonly onSubjectChange: (subject: string) => void;
  readonly subjectInput: RefObject<HTMLInputElement | null>;
  /** Whether the Cc and Bcc fields show (held by the composer: they stay open across Undo send, when these fields leave the page). */
  readonly shown: { readonly cc: boolean; readonly bcc: boolean };
  readonly onShow: (kind: 'cc' | 'bcc') => void;
}

export function ComposerFields(props: ComposerFieldsProps) {
  const t = useT();
  const { titleId, initial, accounts, from, chips, pending, onChipsChange, onPendingChange, suggest } = props;
  const { cc: showCc, bcc: showBcc } = props.shown;
  const account = accounts.find((candidate) => fromKey(candidate) === from);
  return (
    <div className="tern-composer-fields">
      <div className="tern-from-row">
        <label className="tern-field-label" htmlFor={`${titleId}-from`}>
          {t('composer.from')}
        </label>
        {accounts.length > 1 ? (
          <select id={`${titleId}-from`} className="tern-from-select" value={from} onChange={(event) => props.onFromChange(event.target.value)}>
            {accounts.map((candidate) => (
              <option key={fromKey(candidate)} value={fromKey(candidate)}>
                {fromLabel(candidate)}
              </option>
            ))}
          </select>
        ) : (
          <output id={`${titleId}-from`} className="tern-from-static">
            {account ? fromLabel(account) : ''}
          </output>
        )}
      </div>
      <div className="tern-recipient-row">
        <RecipientField
          label={t('composer.to')}
          chips={chips.to}
          onChange={onChipsChange('to')}
          text={pending.to}
          onTextChange={onPendingChange('to')}
          suggest={suggest}
          {...(props.forgetSuggestion ? { forgetSuggestion: props.forgetSuggestion } : {})}
          autoFocus={initial.mode === 'new' || initial.mode === 'forward'}
          inputRef={(input) => (props.toInput.current = input)}
        />
        <span className="tern-cc-toggles">
          {!showCc && (
            <button type="button" className="tern-link-button" onClick={() => props.onShow('cc')} aria-label={t('composer.addCcRecipients')}>
              {t('composer.cc')}
            </button>
          )}
          {!showBcc && (
            <button type="button" className="tern-link-button" onClick={() => props.onShow('bcc')} aria-label={t('composer.addBccRecipients')}>
              {t('composer.bcc')}
            </button>
          )}
        </span>
      </div>
      {showCc && (
        <div className="tern-recipient-row">
          <RecipientField label={t('composer.cc')} chips={chips.cc} onChange={onChipsChange('cc')} text={pending.cc} onTextChange={onPendingChange('cc')} suggest={suggest}
          {...(props.forgetSuggestion ? { forgetSuggestion: props.forgetSuggestion } : {})} autoFocus={chips.cc.length === 0 && initial.cc.length === 0} />
        </div>
      )}
      {showBcc && (
        <div className="tern-recipient-row">
          <RecipientField label={t('composer.bcc')} chips={chips.bcc} onChange={onChipsChange('bcc')} text={pending.bcc} onTextChange={onPendingChange('bcc')} suggest={suggest}
          {...(props.forgetSuggestion ? { forgetSuggestion: props.forgetSuggestion } : {})} autoFocus={chips.bcc.length === 0 && initial.bcc.length === 0} />
        </div>
      )}
      <div className="tern-subject-row">
        <label className="tern-field-label" htmlFor={`${titleId}-subject`}>
          {t('composer.subject')}
        </label>
        <input ref={props.subjectInput} id={`${titleId}-subject`} className="tern-subject" type="text" value={props.subject} onChange={(event) => props.onSubjectChange(event.target.value)} />
      </div>
    </div>
  );
}

/**
 * One account's sender name field: the label naming the account, the input (the name the
 * mail server gave as its placeholder) and the line saying how mail goes out. Shared by
 * Settings → Identity and the settings menu's "Sender name" dialog, which save it their
 * own way (one account at a time, or all at once).
 */
import type { ReactNode } from 'react';
import { cleanDisplayName, MAX_DISPLAY_NAME_LENGTH, type PublicAccount } from '../../../shared/account';
import { useT } from '../../kit/i18n';

export function SenderNameField(props: { id: string; account: PublicAccount; value: string; onChange: (value: string) => void; children?: (input: ReactNode) => ReactNode }) {
  const { id, account, value } = props;
  const t = useT();
  const cleaned = cleanDisplayName(value);
  const input = (
    <input
      id={id}
      className="input"
      type="text"
      autoComplete="name"
      maxLength={MAX_DISPLAY_NAME_LENGTH}
      placeholder={account.name}
      aria-describedby={`${id}-hint`}
      value={value}
      onChange={(event) => props.onChange(event.target.value)}
    />
  );
  return (
    <>
      <label className="field-label" htmlFor={id}>
        {t('settings.senderNameFor', { email: account.emailAddress })}
      </label>
      {/* The page puts its Save button beside the input. */}
      {props.children ? props.children(input) : input}
      <p id={`${id}-hint`} className="field-hint">
        {cleaned ? t('settings.sendsAs', { name: cleaned, email: account.emailAddress }) : t('settings.senderNameDefault', { name: account.name })}
      </p>
    </>
  );
}

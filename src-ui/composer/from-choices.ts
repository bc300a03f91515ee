/**
 * The composer's From: one choice per identity of each account (composer-props.ts
 * ComposerAccount). Pure, so the choice a composer opens with is tested without React.
 */
import type { ComposerInitial } from './compose-initial';
import type { ComposerAccount } from './composer-props';

/** A choice's key (the From select's value): the account, and the identity when one is named. */
export const fromKey = (choice: Pick<ComposerAccount, 'accountId' | 'identityId'>): string => (choice.identityId ? `${choice.accountId}/${choice.identityId}` : choice.accountId);

/** "Name <address>", or the address alone. */
export const fromLabel = (choice: Pick<ComposerAccount, 'name' | 'email'>): string => (choice.name ? `${choice.name} <${choice.email}>` : choice.email);

/**
 * What a composer opens with: the account's identity of `initial.from` (a reply's: the
 * address the mail was sent to; a draft's: its From), else the account's default, else its
 * first choice. Undefined when the account has none (not yet known).
 */
export function initialFrom(choices: readonly ComposerAccount[], initial: Pick<ComposerInitial, 'accountId' | 'from'>): ComposerAccount | undefined {
  const own = choices.filter((choice) => choice.accountId === initial.accountId);
  const wanted = initial.from?.email.toLowerCase();
  return (wanted ? own.find((choice) => choice.email.toLowerCase() === wanted) : undefined) ?? own.find((choice) => choice.isDefault) ?? own[0];
}

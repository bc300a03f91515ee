/** An account's identities as the Settings pages show them (shared/identities.ts): the engine's list, or the own address alone before it answers. */
import { identitiesOrOwn, isAlias, OWN_IDENTITY_ID, type Identity } from '../../../shared/identities';
import type { AccountWithSettings } from '../settings-hooks';

export function identitiesOf({ account, settings }: AccountWithSettings): readonly Identity[] {
  return identitiesOrOwn(settings?.identities, account.emailAddress);
}

export function ownIdentityOf(entry: AccountWithSettings): Identity {
  return identitiesOf(entry).find((identity) => identity.id === OWN_IDENTITY_ID) ?? identitiesOf(entry)[0]!;
}

export function aliasesOf(entry: AccountWithSettings): readonly Identity[] {
  return identitiesOf(entry).filter((identity) => isAlias(identity, entry.account.emailAddress));
}

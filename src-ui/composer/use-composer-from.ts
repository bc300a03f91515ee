/**
 * The composer's From choice (from-choices.ts): what it opened with until the person picks
 * another. The choices may arrive after the composer opened (identities come with the
 * engine's settings), so until a pick the opening choice is worked out again from them.
 */
import { useState } from 'react';
import type { ComposerInitial } from './compose-initial';
import type { ComposerAccount } from './composer-props';
import { fromKey, initialFrom } from './from-choices';

export interface ComposerFrom {
  /** The chosen identity; undefined while the account's choices are not known. */
  readonly choice: ComposerAccount | undefined;
  /** Its key (the From select's value). */
  readonly key: string;
  /** The person picked another From (the caller moves the draft to its account first). */
  choose(key: string): ComposerAccount | undefined;
}

export function useComposerFrom(params: { accounts: readonly ComposerAccount[]; initial: ComposerInitial; accountId: string }): ComposerFrom {
  const { accounts, initial, accountId } = params;
  const [picked, setPicked] = useState<string | null>(null);
  const choice = (picked ? accounts.find((candidate) => fromKey(candidate) === picked) : undefined) ?? initialFrom(accounts, { accountId, ...(accountId === initial.accountId && initial.from ? { from: initial.from } : {}) });
  return {
    choice,
    key: choice ? fromKey(choice) : fromKey({ accountId }),
    choose(key) {
      const next = accounts.find((candidate) => fromKey(candidate) === key);
      if (next) setPicked(key);
      return next;
    },
  };
}

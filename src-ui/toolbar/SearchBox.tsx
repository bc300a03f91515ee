/**
 * The search box (`/` focuses it): typing searches as you go (debounced) through the
 * address's `?q=`, which the mailbox turns into a `search` ListScope over one account or
 * all of them (`?in=`).
 */
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Icon } from '../app/icons';
import { useCurrentMailbox } from '../app/current-mailbox';
import { accountsAtom } from '../state/atoms';

const mailRoute = getRouteApi('/mail');
export const SEARCH_INPUT_ID = 'mail-search';
/** Quiet time after a keystroke before the search runs. */
const TYPING_DELAY_MS = 200;

export function focusSearch(): void {
  const input = document.getElementById(SEARCH_INPUT_ID) as HTMLInputElement | null;
  input?.focus();
  input?.select();
}

export function SearchBox() {
  const search = mailRoute.useSearch();
  const navigate = useNavigate();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const mailbox = useCurrentMailbox();
  const [text, setText] = useState(search.q ?? '');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const scopeValue = search.in ?? (mailbox?.kind === 'folder' ? mailbox.accountId : 'all');

  // The address changed elsewhere (back button, a link): show its query.
  useEffect(() => setText((current) => (current.trim() === (search.q ?? '') ? current : (search.q ?? ''))), [search.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const apply = (query: string, scope: string, replace: boolean) => {
    clearTimeout(timer.current);
    const q = query.trim() || undefined;
    void navigate({
      to: '.',
      search: (previous: Record<string, unknown>) => ({ ...previous, q, in: q && scope !== (mailbox?.kind === 'folder' ? mailbox.accountId : 'all') ? scope : undefined, thread: undefined }),
      replace,
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      if (text) {
        setText('');
        apply('', scopeValue, true);
      } else {
        event.currentTarget.blur();
      }
    }
  };

  return (
    <form
      role="search"
      className="search"
      onSubmit={(event) => {
        event.preventDefault();
        apply(text, scopeValue, false);
        document.getElementById('thread-list')?.focus();
      }}
    >
      <label htmlFor={SEARCH_INPUT_ID} className="visually-hidden">
        Search mail
      </label>
      <Icon name="search" size={18} className="search-icon" />
      <input
        id={SEARCH_INPUT_ID}
        type="search"
        className="search-input"
        placeholder="Search mail"
        autoComplete="off"
        spellCheck={false}
        value={text}
        aria-keyshortcuts="/"
        onKeyDown={onKeyDown}
        onChange={(event) => {
          const value = event.target.value;
          setText(value);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => apply(value, scopeValue, true), TYPING_DELAY_MS);
        }}
      />
      {accounts.length > 1 && (
        <select className="search-scope" aria-label="Search in" value={scopeValue} onChange={(event) => apply(text, event.target.value, true)}>
          <option value="all">All accounts</option>
          {accounts.map((account) => (
            <option key={account.accountId} value={account.accountId}>
              {account.emailAddress}
            </option>
          ))}
        </select>
      )}
    </form>
  );
}

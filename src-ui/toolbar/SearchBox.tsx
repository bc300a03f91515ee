/**
 * The search box (`/` focuses it): every keystroke searches at once through the
 * address's `?q=`, which the mailbox turns into a `search` ListScope over one account or
 * all of them (`?in=`). There is no typing delay: the worker answers a query in about a
 * millisecond, the bridge drops answers to queries typed over, and the list keeps the
 * last results on screen until the next ones arrive. One history entry per search: the
 * first keystroke pushes it, the following ones replace it.
 */
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Icon } from '../app/icons';
import { useCurrentMailbox } from '../app/current-mailbox';
import { accountsAtom } from '../state/atoms';

const mailRoute = getRouteApi('/mail');
export const SEARCH_INPUT_ID = 'mail-search';

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
  const scopeValue = search.in ?? (mailbox?.kind === 'folder' ? mailbox.accountId : 'all');
  /** Queries this box put in the address since it last took one from there, and the latest. */
  const sent = useRef({ all: new Set<string>(), latest: search.q ?? '' });

  // The address changed elsewhere (back button, a link): show its query. Our own queries
  // coming back are not that: adopting one would undo the characters typed since.
  useEffect(() => {
    const q = search.q ?? '';
    if (sent.current.all.has(q)) {
      if (q === sent.current.latest) sent.current.all = new Set([q]);
      return;
    }
    sent.current = { all: new Set(), latest: q };
    setText((current) => (current.trim() === q ? current : q));
  }, [search.q]);

  const apply = (query: string, scope: string, replace: boolean) => {
    const q = query.trim() || undefined;
    sent.current.all.add(q ?? '');
    sent.current.latest = q ?? '';
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
        // The results are there already (searched as typed): Enter only moves to them.
        apply(text, scopeValue, true);
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
          // The first keystroke of a search adds a history entry (Back returns to the mailbox); the rest replace it.
          apply(value, scopeValue, Boolean(search.q) || sent.current.latest !== '');
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

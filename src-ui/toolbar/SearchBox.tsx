/**
 * The search box (`/` focuses it): every keystroke searches at once through the
 * address's `?q=`, which the mailbox turns into a `search` ListScope over one account or
 * all of them (`?in=`). There is no typing delay: the worker answers a query in about a
 * millisecond, the bridge drops answers to queries typed over, and the list keeps the
 * last results on screen until the next ones arrive. One history entry per search: the
 * first keystroke pushes it, the following ones replace it.
 *
 * A query the gateway would refuse (an unknown operator, a bad value, an open quote;
 * shared/search-syntax.ts) finds nothing: the box says why under itself, in the
 * catalogue's words naming the operator, once typing pauses (or at once on Enter), and
 * keeps the text as typed. Escape leaves the search and gives the focus to the list.
 */
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { searchProblemOf } from '../../shared/search-syntax';
import { Icon } from '../kit/icons';
import { useCurrentMailbox } from '../state/current-mailbox';
import { accountsAtom } from '../state/atoms';
import { labelNamesAtom } from '../state/labels';
import { SearchHelp } from './SearchHelp';
import { useLocale, useT } from '../kit/i18n';
import { searchProblemText } from './search-problem-text';
import { useMailActions } from '../state/actions-context';
import { searchScopeFor, type MailboxAddress } from '../state/list-scope';
import type { UnifiedRole } from '../state/search-params';
import { FIRST_WINDOW_ROWS } from '../kit/virtual-window';

const mailRoute = getRouteApi('/mail');
export const SEARCH_INPUT_ID = 'mail-search';
const PROBLEM_ID = 'mail-search-problem';
/** How long typing pauses before a problem with the query is said (not while an operator is half typed). */
export const SEARCH_PROBLEM_DELAY_MS = 600;

/** The list, when it is on screen; else nothing (the focus stays where it is). */
function focusList(): boolean {
  const list = document.getElementById('thread-list');
  if (!list || list.closest('[hidden]')) return false;
  list.focus();
  return true;
}

export function focusSearch(): void {
  const input = document.getElementById(SEARCH_INPUT_ID) as HTMLInputElement | null;
  input?.focus();
  input?.select();
}

export function SearchBox() {
  const t = useT();
  const locale = useLocale();
  const search = mailRoute.useSearch();
  const navigate = useNavigate();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const mailbox = useCurrentMailbox();
  const [text, setText] = useState(search.q ?? '');
  const defaultScope = mailbox?.kind === 'folder' ? mailbox.accountId : 'all';
  // A scope picked before anything is typed waits here for the query (the address holds `in` only with a `q`).
  const [pickedScope, setPickedScope] = useState<string | null>(null);
  useEffect(() => setPickedScope(null), [defaultScope]);
  const scopeValue = search.in ?? pickedScope ?? defaultScope;
  const labelNames = useAtomValue(labelNamesAtom);
  const problem = useMemo(() => searchProblemOf(text, labelNames), [text, labelNames]);
  // The query as it was when typing last paused (or Enter was pressed): its problem is the one shown.
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), SEARCH_PROBLEM_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const shownProblem = problem && settled === text ? searchProblemText(problem, t, locale) : null;
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

  const actions = useMailActions();
  /**
   * The engine starts on a query in the input event that typed it: the address changing
   * and the mailbox rendering for it (a frame's worth of work) happen while it searches,
   * and the mailbox then keeps the list opened here (thread-list-feed.ts). The scope is
   * the one the mailbox's route will make of the address (list-scope.ts).
   */
  const searchAhead = (query: string, scope: string) => {
    const q = query.trim();
    if (!q || q.length > 1000 || !mailbox) return;
    const place: MailboxAddress = mailbox.kind === 'unified' ? { kind: 'unified', role: mailbox.role as UnifiedRole } : mailbox;
    const accountIds = accounts.map((account) => account.accountId);
    actions.openThreadListAhead(searchScopeFor(place, { q, in: scope !== defaultScope ? scope : undefined }, accountIds), { offset: 0, limit: FIRST_WINDOW_ROWS });
  };

  const apply = (query: string, scope: string, replace: boolean) => {
    const q = query.trim() || undefined;
    sent.current.all.add(q ?? '');
    sent.current.latest = q ?? '';
    void navigate({
      to: '.',
      // A new query is searched in the cache first: the server's search is asked for per query.
      search: (previous: Record<string, unknown>) => ({ ...previous, q, in: q && scope !== defaultScope ? scope : undefined, thread: undefined, server: undefined }),
      replace,
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      // Escape leaves the search: the mailbox comes back and the keys work on its list again.
      event.preventDefault();
      const input = event.currentTarget;
      if (text || search.q) {
        setText('');
        setPickedScope(null);
        apply('', defaultScope, true);
      }
      if (!focusList()) input.blur();
    }
  };

  const insertOperator = (insertion: string) => {
    const next = `${text.trimEnd()}${text.trim() ? ' ' : ''}${insertion}`;
    setText(next);
    const input = document.getElementById(SEARCH_INPUT_ID) as HTMLInputElement | null;
    input?.focus();
    input?.setSelectionRange(next.length, next.length);
    // An operator still waiting for its value searches nothing new; a whole one (has:attachment) searches at once.
    apply(next, scopeValue, Boolean(search.q) || sent.current.latest !== '');
  };

  return (
    <form
      role="search"
      className="search"
      onSubmit={(event) => {
        event.preventDefault();
        // The results are there already (searched as typed): Enter only moves to them,
        // or says at once what is wrong with the query, the focus staying in the box to fix it.
        apply(text, scopeValue, true);
        if (problem) setSettled(text);
        else focusList();
      }}
    >
      <label htmlFor={SEARCH_INPUT_ID} className="visually-hidden">
        {t('toolbar.searchMail')}
      </label>
      <Icon name="search" size={18} className="search-icon" />
      <input
        id={SEARCH_INPUT_ID}
        type="search"
        className="search-input"
        placeholder={t('toolbar.searchMail')}
        autoComplete="off"
        spellCheck={false}
        value={text}
        aria-keyshortcuts="/"
        aria-invalid={shownProblem ? true : undefined}
        aria-describedby={shownProblem ? PROBLEM_ID : undefined}
        onKeyDown={onKeyDown}
        onChange={(event) => {
          const value = event.target.value;
          searchAhead(value, scopeValue);
          setText(value);
          // The first keystroke of a search adds a history entry (Back returns to the mailbox); the rest replace it.
          apply(value, scopeValue, Boolean(search.q) || sent.current.latest !== '');
        }}
      />
      {accounts.length > 1 && (
        <select
          className="search-scope"
          aria-label={t('toolbar.searchIn')}
          value={scopeValue}
          onChange={(event) => {
            setPickedScope(event.target.value);
            apply(text, event.target.value, true);
          }}
        >
          <option value="all">{t('toolbar.allAccounts')}</option>
          {accounts.map((account) => (
            <option key={account.accountId} value={account.accountId}>
              {account.emailAddress}
            </option>
          ))}
        </select>
      )}
      <SearchHelp onPick={insertOperator} />
      {shownProblem && (
        <p id={PROBLEM_ID} role="alert" className="search-problem">
          {shownProblem}
        </p>
      )}
    </form>
  );
}

/**
 * The Contacts screen (issue 18): one account's address book — search, the virtual list, the
 * open card beside it (on a phone, one or the other), and cards that share an address by the
 * spec's equivalence offered for merging. Its own lazy chunk (/contacts).
 * Keyboard: "/" goes to the search, the list is one Tab stop, Escape closes the card, then
 * returns to the mailbox.
 */
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { contactDisplayName } from '../../shared/contacts';
import { TernError } from '../../shared/errors';
import type { ContactCard } from '../../shared/worker-contacts-api';
import { errorText, useT } from '../kit/i18n';
import { Icon } from '../kit/icons';
import { MenuButton } from '../kit/Menu';
import { useMailActions } from '../state/actions-context';
import { accountsAtom } from '../state/atoms';
import { ContactEditor } from './ContactEditor';
import { ContactList } from './ContactList';
import { ContactListsPanel } from './ContactLists';
import { ImportDialog } from './ImportDialog';
import { filterCards, useContactBook } from './use-contact-book';
import './contacts.css';

/** A merge keeps the oldest card (the one first made) and folds the later ones into it. */
const oldestFirst = (group: readonly ContactCard[]) => [...group].sort((a, b) => a.createdAt - b.createdAt).map((card) => card.id);

export function ContactsScreen() {
  const t = useT();
  const navigate = useNavigate();
  const actions = useMailActions();
  const search = useSearch({ from: '/contacts' });
  const accounts = useAtomValue(accountsAtom) ?? [];
  const accountId = search.account && accounts.some((account) => account.accountId === search.account) ? search.account : (accounts[0]?.accountId ?? null);
  const book = useContactBook(accountId);
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const shown = useMemo(() => filterCards(book.cards, deferred), [book.cards, deferred]);
  const searchBox = useRef<HTMLInputElement>(null);
  const [mergeError, setMergeError] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [fileNotice, setFileNotice] = useState<string | null>(null);

  /** Saves the book as a file through a link the browser downloads (the engine made the text from this device's copy). */
  const exportAs = async (format: 'csv' | 'vcard') => {
    if (!accountId) return;
    try {
      const file = await actions.exportContacts({ accountId, format });
      const url = URL.createObjectURL(new Blob([file.text], { type: file.mimeType }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.fileName;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setFileNotice(t('contacts.exported', { count: book.cards.length }));
    } catch (error) {
      setFileNotice(errorText(t, TernError.from(error)));
    }
  };

  const go = (next: { account?: string | undefined; contact?: string | undefined }) =>
    void navigate({ to: '/contacts', search: { account: accountId ?? undefined, contact: search.contact, ...next }, replace: next.account === undefined });
  const open = (contact: string | undefined) => go({ contact });
  const openCard = search.contact && search.contact !== 'new' ? (book.cards.find((listed) => listed.card.id === search.contact)?.card ?? null) : null;
  const editing = search.contact === 'new' || openCard !== null;
  const backToMail = () => void navigate({ to: '/mail/unified/$role', params: { role: 'inbox' } });

  // On the document: a key pressed with nothing focused (the page's body) counts too.
  const onKey = useRef<(event: globalThis.KeyboardEvent) => void>(() => undefined);
  onKey.current = (event) => {
    const target = event.target instanceof HTMLElement ? event.target : document.body;
    const typing = target.closest('input, textarea, select');
    if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      searchBox.current?.focus();
      return;
    }
    if (event.key !== 'Escape' || event.defaultPrevented || target.closest('dialog, [role="dialog"]')) return;
    event.preventDefault();
    if (editing) open(undefined);
    else backToMail();
  };
  useEffect(() => {
    const listener = (event: globalThis.KeyboardEvent) => onKey.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const merge = async (ids: readonly string[]) => {
    if (!accountId) return;
    setMergeError(null);
    try {
      const merged = await actions.mergeContacts({ accountId, ids });
      open(merged.id);
    } catch (error) {
      setMergeError(errorText(t, TernError.from(error)));
    }
  };

  return (
    <div className={`contacts-screen${editing ? ' contacts-editing' : ''}`}>
      <header className="contacts-header">
        <button type="button" className="button button-secondary contacts-back" aria-label={t('contacts.backToMail')} onClick={backToMail}>
          <Icon name="arrowLeft" size={18} />
          <span>{t('contacts.backToMail')}</span>
        </button>
        <h1 className="contacts-title">{t('contacts.title')}</h1>
        <MenuButton
          label={t('contacts.fileMenu')}
          title={t('contacts.fileMenu')}
          className="icon-button contacts-file-menu"
          align="end"
          entries={[
            { kind: 'item', id: 'import', label: t('contacts.importMenu'), icon: 'file', onSelect: () => setImporting(true) },
            { kind: 'item', id: 'export-csv', label: t('contacts.exportCsv'), icon: 'download', onSelect: () => void exportAs('csv') },
            { kind: 'item', id: 'export-vcard', label: t('contacts.exportVcard'), icon: 'download', onSelect: () => void exportAs('vcard') },
          ]}
        >
          <Icon name="more" size={19} />
        </MenuButton>
        {accounts.length > 1 ? (
          <select className="input contacts-account" aria-label={t('contacts.account')} value={accountId ?? ''} onChange={(event) => go({ account: event.target.value, contact: undefined })}>
            {accounts.map((account) => (
              <option key={account.accountId} value={account.accountId}>
                {account.emailAddress}
              </option>
            ))}
          </select>
        ) : null}
      </header>
      <div className="contacts-body">
        <section className="contacts-list-pane" aria-label={t('contacts.title')}>
          <div className="contacts-tools">
            <input
              ref={searchBox}
              className="input contacts-search"
              type="search"
              placeholder={t('contacts.searchPlaceholder')}
              aria-label={t('contacts.search')}
              aria-keyshortcuts="/"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
            <button type="button" className="button button-primary contacts-new" onClick={() => open('new')}>
              <Icon name="plus" size={16} />
              <span>{t('contacts.newContact')}</span>
            </button>
          </div>
          {fileNotice ? (
            <p className="contacts-file-notice" role="status">
              {fileNotice}
            </p>
          ) : null}
          {book.refused ? (
            <p className="contacts-notice" role="status">
              {t('contacts.refused', { reason: errorText(t, book.refused) })}
            </p>
          ) : null}
          {book.duplicates.length > 0 ? (
            <details className="contacts-duplicates">
              <summary>{t('contacts.duplicates', { count: book.duplicates.length })}</summary>
              <ul>
                {book.duplicates.slice(0, 20).map((group) => (
                  <li key={group.map((card) => card.id).join()}>
                    <span className="contacts-duplicate-names">{group.map((card) => contactDisplayName(card)).join(' · ')}</span>
                    <button type="button" className="button button-secondary" onClick={() => void merge(oldestFirst(group))}>
                      {t('contacts.merge')}
                    </button>
                  </li>
                ))}
              </ul>
              {mergeError ? <p className="contact-error">{mergeError}</p> : null}
            </details>
          ) : null}
          {book.loading ? (
            <p className="contacts-empty">{t('contacts.loading')}</p>
          ) : shown.length === 0 ? (
            <p className="contacts-empty">{t(book.cards.length === 0 ? 'contacts.empty' : 'contacts.noMatch')}</p>
          ) : (
            <ContactList cards={shown} openId={openCard?.id ?? null} onOpen={open} />
          )}
          {/* Below the cards: the list stays the second Tab stop after the search and New contact. */}
          {accountId ? <ContactListsPanel accountId={accountId} lists={book.lists} /> : null}
        </section>
        <main className="contacts-card-pane">
          {editing && accountId ? (
            <ContactEditor key={openCard?.id ?? 'new'} accountId={accountId} card={openCard} lists={book.lists} onSaved={(id) => open(id)} onClose={() => open(undefined)} />
          ) : (
            <p className="contacts-empty">{t('contacts.chooseOne', { count: book.cards.length })}</p>
          )}
        </main>
      </div>
      {importing && accountId ? <ImportDialog accountId={accountId} onClose={() => setImporting(false)} /> : null}
    </div>
  );
}

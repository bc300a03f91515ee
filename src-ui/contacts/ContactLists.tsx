/**
 * Contact lists on the Contacts screen (issue 18 point 3, the spec's contact groups): the
 * account's lists with their sizes, a new list by name, a list deleted; on a card, a box per
 * list to put the card in or take it out. A plan without contact groups shows the paywall
 * (useFeature) instead of the controls. Lists are changed on the gateway at once: a refusal
 * (offline, the plan) is said in place.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { TernError } from '../../shared/errors';
import type { ContactList } from '../../shared/worker-contacts-api';
import { errorText, useT } from '../kit/i18n';
import { Icon } from '../kit/icons';
import { useMailActions } from '../state/actions-context';
import { useFeature } from '../state/use-feature';

export function ContactListsPanel({ accountId, lists }: { accountId: string; lists: readonly ContactList[] }) {
  const t = useT();
  const actions = useMailActions();
  const { allowed, requestPaywall } = useFeature('contactGroups', accountId);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(errorText(t, TernError.from(caught)));
    }
  };
  const create = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    void run(async () => {
      await actions.saveContactList({ accountId, name, memberIds: [] });
      setName('');
    });
  };
  return (
    <details className="contacts-lists" open={lists.length > 0 || undefined}>
      <summary>{t('contacts.lists', { count: lists.length })}</summary>
      {!allowed ? (
        <p>
          <button type="button" className="button button-secondary" onClick={requestPaywall}>
            {t('contacts.listsPaywall')}
          </button>
        </p>
      ) : (
        <>
          <ul aria-label={t('contacts.listsLabel')}>
            {lists.map((list) => (
              <li key={list.id}>
                <span className="contacts-list-name">{list.name}</span>
                <span className="contacts-list-size">{t('contacts.listSize', { count: list.memberIds.length })}</span>
                <button type="button" className="icon-button" aria-label={t('contacts.deleteList', { name: list.name })} title={t('contacts.deleteList', { name: list.name })} onClick={() => void run(() => actions.removeContactList({ accountId, id: list.id }))}>
                  <Icon name="trash" size={16} />
                </button>
              </li>
            ))}
          </ul>
          <form className="contacts-list-new" onSubmit={create}>
            <input className="input" aria-label={t('contacts.newListName')} placeholder={t('contacts.newListName')} value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
            <button type="submit" className="button button-secondary">
              {t('contacts.newList')}
            </button>
          </form>
        </>
      )}
      {error ? <p className="contact-error">{error}</p> : null}
    </details>
  );
}

/** On a card: the lists it is in, each a box to tick or untick. */
export function ListMembership({ accountId, cardId, lists }: { accountId: string; cardId: string; lists: readonly ContactList[] }) {
  const t = useT();
  const actions = useMailActions();
  const { allowed } = useFeature('contactGroups', accountId);
  const [error, setError] = useState<string | null>(null);
  // A box shows what was ticked at once; the book's push (after the gateway) then agrees and the entry goes.
  const [ticked, setTicked] = useState<Readonly<Record<string, boolean>>>({});
  useEffect(() => {
    setTicked((old) => Object.fromEntries(Object.entries(old).filter(([id, member]) => lists.find((list) => list.id === id)?.memberIds.includes(cardId) !== member)));
  }, [lists, cardId]);
  if (!allowed || lists.length === 0) return null;
  const toggle = async (list: ContactList, member: boolean) => {
    setError(null);
    setTicked((old) => ({ ...old, [list.id]: member }));
    const memberIds = member ? [...list.memberIds, cardId] : list.memberIds.filter((id) => id !== cardId);
    try {
      await actions.saveContactList({ accountId, id: list.id, name: list.name, memberIds });
    } catch (caught) {
      setTicked((old) => Object.fromEntries(Object.entries(old).filter(([id]) => id !== list.id)));
      setError(errorText(t, TernError.from(caught)));
    }
  };
  return (
    <fieldset className="contact-field-group">
      <legend>{t('contacts.listsOfCard')}</legend>
      {lists.map((list) => (
        <label key={list.id} className="contact-list-member">
          <input type="checkbox" checked={ticked[list.id] ?? list.memberIds.includes(cardId)} onChange={(event) => void toggle(list, event.target.checked)} />
          {list.name}
        </label>
      ))}
      {error ? <p className="contact-error">{error}</p> : null}
    </fieldset>
  );
}

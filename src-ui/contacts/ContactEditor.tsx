/**
 * One card, edited in place: names, several addresses and phones, company, notes; the avatar
 * in the spec's hue of the name shown. Save keeps nothing half-done: a refused card (an address
 * that is not one, the book full) stays on screen with the field named, as typed.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { contactDisplayName, contactHue, type ContactInput } from '../../shared/contacts';
import { TernError } from '../../shared/errors';
import type { ContactCard, ContactList } from '../../shared/worker-contacts-api';
import { Avatar } from '../kit/Avatar';
import { errorText, useT } from '../kit/i18n';
import { Icon } from '../kit/icons';
import { useMailActions } from '../state/actions-context';
import { RecentMail } from './RecentMail';
import { ListMembership } from './ContactLists';

type Draft = { firstName: string; lastName: string; emails: string[]; phones: string[]; company: string; notes: string };

const draftOf = (card: ContactCard | null, prefill?: Partial<Draft>): Draft => ({
  firstName: card?.firstName ?? prefill?.firstName ?? '',
  lastName: card?.lastName ?? prefill?.lastName ?? '',
  emails: card ? [...card.emails, ''] : [...(prefill?.emails ?? []), ''],
  phones: card ? [...card.phones, ''] : [''],
  company: card?.company ?? '',
  notes: card?.notes ?? '',
});

/** The fields a refusal names (InvalidRequestData's detail: [{ path: 'emails.1' }]). */
function badFields(error: TernError | null): Set<string> {
  const detail = error?.detail;
  return new Set(Array.isArray(detail) ? detail.map((issue: { path?: string }) => issue.path ?? '') : []);
}

export function ContactEditor(props: { accountId: string; card: ContactCard | null; lists?: readonly ContactList[]; prefill?: Partial<Draft>; onSaved: (id: string) => void; onClose: () => void }) {
  const { accountId, card } = props;
  const t = useT();
  const actions = useMailActions();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(card, props.prefill));
  const [failure, setFailure] = useState<TernError | null>(null);
  const [saving, setSaving] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setDraft(draftOf(card, props.prefill));
    setFailure(null);
    // Another card opened: its first field takes the focus (a screen reader hears where it is).
    first.current?.focus();
    // The card's own changes (a push from another tab) do not reset what is being typed: only its id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [card?.id]);

  const bad = badFields(failure);
  const set = (patch: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...patch }));
  const setListItem = (key: 'emails' | 'phones', index: number, value: string) =>
    setDraft((previous) => {
      const list = previous[key].map((item, i) => (i === index ? value : item));
      // One empty field waits at the end for the next address or phone.
      if (list.at(-1) !== '') list.push('');
      return { ...previous, [key]: list };
    });
  const input = (): Partial<ContactInput> => ({
    firstName: draft.firstName,
    lastName: draft.lastName,
    emails: draft.emails.map((email) => email.trim()).filter(Boolean),
    phones: draft.phones.map((phone) => phone.trim()).filter(Boolean),
    company: draft.company,
    notes: draft.notes,
  });
  const shown = { firstName: draft.firstName.trim(), lastName: draft.lastName.trim(), company: draft.company.trim(), emails: draft.emails.filter(Boolean) };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      const saved = await actions.saveContact({ accountId, ...(card ? { id: card.id } : {}), card: input() });
      props.onSaved(saved.id);
    } catch (error) {
      setFailure(TernError.from(error));
    } finally {
      setSaving(false);
    }
  };
  const remove = async () => {
    if (!card) return;
    await actions.deleteContacts({ accountId, ids: [card.id], name: contactDisplayName(card) });
    props.onClose();
  };

  const listField = (key: 'emails' | 'phones', label: string, type: string) => (
    <fieldset className="contact-field-group">
      <legend>{label}</legend>
      {draft[key].map((value, index) => (
        <input
          key={index}
          className={`input${bad.has(`${key}.${index}`) ? ' input-invalid' : ''}`}
          type={type}
          value={value}
          aria-label={`${label} ${index + 1}`}
          aria-invalid={bad.has(`${key}.${index}`) || undefined}
          onChange={(event) => setListItem(key, index, event.target.value)}
        />
      ))}
    </fieldset>
  );

  return (
    <form className="contact-editor" noValidate onSubmit={(event) => void save(event)} aria-labelledby={`${id}-title`}>
      <header className="contact-editor-head">
        <button type="button" className="icon-button contact-editor-back" aria-label={t('contacts.backToList')} onClick={props.onClose}>
          <Icon name="arrowLeft" size={20} />
        </button>
        <Avatar name={contactDisplayName(shown)} email={shown.emails[0] ?? ''} hue={contactHue(shown)} size={48} />
        <h2 id={`${id}-title`} className="contact-editor-title">
          {contactDisplayName(shown) || t(card ? 'contacts.untitled' : 'contacts.newContact')}
        </h2>
      </header>
      {/* What one comes to a card for first, above its fields: the last conversations with the person. */}
      {card?.emails[0] ? <RecentMail accountId={accountId} email={card.emails[0]} name={contactDisplayName(card)} /> : null}
      <div className="contact-editor-names">
        <label className="contact-field">
          <span>{t('contacts.firstName')}</span>
          <input ref={first} className="input" value={draft.firstName} autoComplete="off" onChange={(event) => set({ firstName: event.target.value })} />
        </label>
        <label className="contact-field">
          <span>{t('contacts.lastName')}</span>
          <input className="input" value={draft.lastName} autoComplete="off" onChange={(event) => set({ lastName: event.target.value })} />
        </label>
      </div>
      {listField('emails', t('contacts.emails'), 'email')}
      {listField('phones', t('contacts.phones'), 'tel')}
      <label className="contact-field">
        <span>{t('contacts.company')}</span>
        <input className="input" value={draft.company} onChange={(event) => set({ company: event.target.value })} />
      </label>
      <label className="contact-field">
        <span>{t('contacts.notes')}</span>
        <textarea className="input contact-notes" rows={4} value={draft.notes} onChange={(event) => set({ notes: event.target.value })} />
      </label>
      {failure ? (
        <p className="contact-error" role="alert">
          {errorText(t, failure)}
        </p>
      ) : null}
      {card && props.lists ? <ListMembership accountId={accountId} cardId={card.id} lists={props.lists} /> : null}
      <div className="contact-editor-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {t(saving ? 'contacts.saving' : 'contacts.save')}
        </button>
        <button type="button" className="button button-secondary" onClick={props.onClose}>
          {t('contacts.cancel')}
        </button>
        {card ? (
          <button type="button" className="button button-danger contact-delete" onClick={() => void remove()}>
            <Icon name="trash" size={16} />
            <span>{t('contacts.delete')}</span>
          </button>
        ) : null}
      </div>
    </form>
  );
}

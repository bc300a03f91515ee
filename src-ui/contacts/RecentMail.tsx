/**
 * A card's recent mail (issue 18: "see a contact's recent mail"): the newest conversations
 * of this device's copy with the card's first address — from it, to it or copied — each
 * opening in the mailbox, and a link to the whole search. Read once per card shown: the
 * cached search answers in milliseconds, and the card is no live mail list.
 */
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import type { ThreadRow } from '../../shared/worker-mail-views';
import { formatListTime } from '../kit/date-format';
import { useLocale, useT } from '../kit/i18n';
import { useMailActions } from '../state/actions-context';

const SHOWN = 5;

export function RecentMail({ accountId, email, name }: { accountId: string; email: string; name: string }) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const actions = useMailActions();
  const id = useId();
  const [rows, setRows] = useState<readonly ThreadRow[] | null>(null);
  useEffect(() => {
    let live = true;
    setRows(null);
    actions
      .recentMailWith({ accountId, email, limit: SHOWN })
      .then((found) => live && setRows(found))
      .catch(() => live && setRows([]));
    return () => {
      live = false;
    };
  }, [actions, accountId, email]);

  // The mailbox's search of the address, in this account; a conversation opens beside it.
  const query = `"${email}"`;
  const open = (row?: ThreadRow) => void navigate({ to: '/mail/unified/$role', params: { role: 'inbox' }, search: { q: query, in: accountId, ...(row ? { thread: row.key } : {}) } });

  return (
    <section className="contact-recent" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="contact-recent-title">
        {t('contacts.recentMail')}
      </h3>
      {rows === null ? (
        <p className="contact-recent-note">{t('contacts.recentMailLoading')}</p>
      ) : rows.length === 0 ? (
        <p className="contact-recent-note">{t('contacts.recentMailNone', { email })}</p>
      ) : (
        <ul className="contact-recent-list">
          {rows.map((row) => (
            <li key={row.key}>
              <button type="button" className="contact-recent-row" onClick={() => open(row)}>
                <span className={`contact-recent-subject${row.unreadCount > 0 ? ' contact-recent-unread' : ''}`}>{row.subject || t('conversation.noSubject')}</span>
                <time className="contact-recent-date" dateTime={new Date(row.lastMessageAt).toISOString()}>
                  {formatListTime(row.lastMessageAt, Date.now(), locale)}
                </time>
              </button>
            </li>
          ))}
        </ul>
      )}
      {rows && rows.length > 0 ? (
        <button type="button" className="button button-secondary contact-recent-all" onClick={() => open()}>
          {t('contacts.recentMailAll', { name })}
        </button>
      ) : null}
    </section>
  );
}

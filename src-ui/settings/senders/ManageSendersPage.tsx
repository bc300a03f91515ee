/**
 * Settings → Manage senders (issue 17 point 2): who sends the most mail across the accounts
 * (the engine counts the cached mail, shared/senders.ts), with what can be done to all of a
 * sender's mail at once. Archive, delete and "keep only the latest" are thread commands over
 * ListScope `sender` (progress bar, then a confirmation with Undo, as "Select all" has);
 * block puts the address on each account's blocklist (with Undo); unsubscribe is asked first,
 * saying how it will happen (the gateway's one-click POST, its mail, or the page opened here).
 * Not behind a plan: the spec's paywall list has no manage senders.
 */
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { TernError } from '../../../shared/errors';
import type { SenderSummary } from '../../../shared/senders';
import { formatPhrase } from '../../../shared/strings';
import { checkedUnsubscribeUrl } from '../../../shared/unsubscribe';
import type { ListScope } from '../../../shared/worker-mail-api';
import { formatListTime } from '../../kit/date-format';
import { errorText, useLocale, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { accountsAtom, scopeRunAtom } from '../../state/atoms';
import './senders-page.css';

type Asking = { readonly sender: SenderSummary; readonly kind: 'delete' | 'keepLatest' | 'unsubscribe' };

const scopeOf = (sender: SenderSummary, keepLatest = false): ListScope => ({ kind: 'sender', accountIds: sender.accountIds, email: sender.email, ...(keepLatest ? { keepLatest } : {}) });
const senderLabel = (sender: SenderSummary) => (sender.name ? `${sender.name} <${sender.email}>` : sender.email);

export default function ManageSendersPage() {
  const t = useT();
  const actions = useMailActions();
  const accounts = useAtomValue(accountsAtom) ?? [];
  const accountIds = useMemo(() => accounts.map((account) => account.accountId), [accounts]);
  const [senders, setSenders] = useState<readonly SenderSummary[] | null>(null);
  const [filter, setFilter] = useState('');
  const [asking, setAsking] = useState<Asking | null>(null);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const filterId = useId();

  const load = useCallback(async () => {
    try {
      setSenders(await actions.listSenders({ accountIds }));
    } catch (error) {
      setNotice({ text: errorText(t, TernError.from(error)), error: true });
      setSenders([]);
    }
  }, [actions, accountIds, t]);
  useEffect(() => void load(), [load]);

  const shown = useMemo(() => {
    const wanted = filter.trim().toLowerCase();
    return (senders ?? []).filter((sender) => !wanted || sender.email.includes(wanted) || sender.name.toLowerCase().includes(wanted));
  }, [senders, filter]);

  /** A bulk command over the sender's threads; the list is counted again once it is recorded. */
  const runOn = async (sender: SenderSummary, kind: 'archive' | 'trash', keepLatest = false) => {
    setAsking(null);
    await actions.runOnScope({ kind }, scopeOf(sender, keepLatest));
    await load();
  };

  const unsubscribe = async (sender: SenderSummary) => {
    const way = sender.unsubscribe;
    setAsking(null);
    if (!way) return;
    try {
      if (way.method === 'url') {
        // A page to open: only http(s) (shared/unsubscribe.ts), in a tab that cannot reach back to this one.
        window.open(checkedUnsubscribeUrl(way.target).href, '_blank', 'noopener,noreferrer');
        setNotice({ text: t('senders.openedUrl', { sender: senderLabel(sender) }), error: false });
        return;
      }
      const done = await actions.unsubscribe({ accountId: way.accountId, messageId: way.messageId });
      setNotice({
        text: done.method === 'mailto' ? t('senders.unsubscribedMailto', { target: done.to }) : t('senders.unsubscribedOneClick', { sender: senderLabel(sender) }),
        error: false,
      });
    } catch (error) {
      setNotice({ text: errorText(t, TernError.from(error)), error: true });
    }
  };

  const block = async (sender: SenderSummary) => {
    for (const accountId of sender.accountIds) await actions.blockSender({ accountId, sender: sender.email });
  };

  return (
    <div className="settings-sections senders-page">
      <p className="settings-intro">{t('senders.intro')}</p>
      <div className="settings-inline senders-tools">
        <label className="visually-hidden" htmlFor={filterId}>
          {t('senders.filter')}
        </label>
        <input id={filterId} className="input" type="search" placeholder={t('senders.filter')} value={filter} onChange={(event) => setFilter(event.target.value)} />
        <button type="button" className="button button-secondary" onClick={() => void load()}>
          {t('senders.refresh')}
        </button>
      </div>
      <RunProgress />
      {notice && (
        <p className={notice.error ? 'field-error' : 'settings-notice'} role={notice.error ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
      {senders === null ? (
        <p className="field-hint" role="status">
          {t('senders.loading')}
        </p>
      ) : shown.length === 0 ? (
        <p className="field-hint">{senders.length === 0 ? t('senders.none') : t('senders.noMatch', { text: filter.trim() })}</p>
      ) : (
        <ul className="senders-list" aria-label={t('senders.sender')}>
          {shown.map((sender) => (
            <SenderRow
              key={sender.email}
              sender={sender}
              asking={asking?.sender.email === sender.email ? asking.kind : null}
              onAsk={(kind) => setAsking({ sender, kind })}
              onCancel={() => setAsking(null)}
              onArchive={() => void runOn(sender, 'archive')}
              onDelete={() => void runOn(sender, 'trash')}
              onKeepLatest={() => void runOn(sender, 'trash', true)}
              onBlock={() => void block(sender)}
              onUnsubscribe={() => void unsubscribe(sender)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

/** The bulk command's progress ("Moving 250 of 1,234 conversations"), while it runs. */
function RunProgress() {
  const t = useT();
  const locale = useLocale();
  const running = useAtomValue(scopeRunAtom);
  if (!running) return null;
  const verb = formatPhrase(locale, running.verb);
  return (
    <div className="senders-progress">
      <progress aria-label={verb} value={running.done} max={Math.max(1, running.total)} />
      <span role="status">
        {verb} {t('senders.working', { done: running.done, total: running.total })}
      </span>
    </div>
  );
}

interface SenderRowProps {
  readonly sender: SenderSummary;
  readonly asking: Asking['kind'] | null;
  readonly onAsk: (kind: Asking['kind']) => void;
  readonly onCancel: () => void;
  readonly onArchive: () => void;
  readonly onDelete: () => void;
  readonly onKeepLatest: () => void;
  readonly onBlock: () => void;
  readonly onUnsubscribe: () => void;
}

function SenderRow({ sender, asking, onAsk, onCancel, onArchive, onDelete, onKeepLatest, onBlock, onUnsubscribe }: SenderRowProps) {
  const t = useT();
  const locale = useLocale();
  const label = senderLabel(sender);
  const percent = Math.round((100 * sender.unread) / Math.max(1, sender.count));
  const question =
    asking === 'delete'
      ? t('senders.confirmDelete', { count: sender.count, sender: label })
      : asking === 'keepLatest'
        ? t('senders.confirmKeepLatest', { sender: label })
        : asking === 'unsubscribe' && sender.unsubscribe
          ? t(sender.unsubscribe.method === 'oneClick' ? 'senders.confirmOneClick' : sender.unsubscribe.method === 'mailto' ? 'senders.confirmMailto' : 'senders.confirmUrl', {
              sender: label,
              target: sender.unsubscribe.target,
            })
          : null;
  const confirm = asking === 'delete' ? onDelete : asking === 'keepLatest' ? onKeepLatest : onUnsubscribe;
  return (
    <li className="senders-row" aria-label={label}>
      <div className="senders-who">
        <span className="senders-name">{sender.name || sender.email}</span>
        {sender.name && <span className="senders-email">{sender.email}</span>}
      </div>
      <div className="senders-facts">
        <span>{t('senders.messages', { count: sender.count })}</span>
        <span>{t('senders.unreadShare', { percent })}</span>
        <span>{t('senders.last', { date: formatListTime(sender.lastAt, Date.now(), locale) })}</span>
        {sender.unsubscribe && <span className="senders-badge">{t('senders.canUnsubscribe')}</span>}
      </div>
      {question ? (
        <div className="senders-confirm" role="group" aria-label={question}>
          <p>{question}</p>
          <div className="settings-inline">
            <button type="button" className={asking === 'unsubscribe' ? 'button button-primary' : 'button button-danger'} onClick={confirm}>
              {asking === 'unsubscribe' ? t('senders.unsubscribe') : asking === 'delete' ? t('senders.deleteAll') : t('senders.keepLatest')}
            </button>
            <button type="button" className="button button-secondary" autoFocus onClick={onCancel}>
              {t('senders.cancel')}
            </button>
          </div>
        </div>
      ) : (
        <div className="senders-actions" role="group" aria-label={t('senders.actionsFor', { sender: label })}>
          <button type="button" className="button button-secondary" onClick={onArchive}>
            {t('senders.archiveAll')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => onAsk('delete')}>
            {t('senders.deleteAll')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => onAsk('keepLatest')} disabled={sender.count < 2}>
            {t('senders.keepLatest')}
          </button>
          <button type="button" className="button button-secondary" onClick={onBlock}>
            {t('senders.block')}
          </button>
          {sender.unsubscribe && (
            <button type="button" className="button button-secondary" onClick={() => onAsk('unsubscribe')}>
              {t('senders.unsubscribe')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * Settings → Sessions (issue 19 point 5): where the chosen account is signed in to Tern — the
 * browser, the approximate place (the country from the operator's GeoIP database, else the
 * address), when it was last active — with "This device" marked; any other session can be
 * signed out (its HTTP and websocket end at once), or all of them together.
 */
import { useCallback, useEffect, useState } from 'react';
import type { SessionInfo } from '../../../shared/api/security';
import { TernError } from '../../../shared/errors';
import { formatMessageDate } from '../../kit/date-format';
import { errorText, useLocale, useT } from '../../kit/i18n';
import { useMailActions } from '../../state/actions-context';
import { AccountPicker, useChosenAccount } from './AccountPicker';
import { useSecurityCall } from './use-security-call';
import { describeUserAgent } from './user-agent';
import { FieldError } from '../../kit/FieldError';
import './security.css';

function placeName(session: SessionInfo, locale: string): string | null {
  if (session.country) {
    try {
      return new Intl.DisplayNames([locale], { type: 'region' }).of(session.country) ?? session.country;
    } catch {
      return session.country;
    }
  }
  return session.ip;
}

function SessionRow({ session, onSignOut, busy }: { session: SessionInfo; onSignOut: () => void; busy: boolean }) {
  const t = useT();
  const locale = useLocale();
  const { browser, system } = describeUserAgent(session.userAgent);
  const name = browser && system ? t('security.browserOn', { browser, system }) : (browser ?? system ?? t('security.unknownBrowser'));
  return (
    <li className="security-session" data-current={session.current ? 'true' : undefined}>
      <div className="security-session-main">
        <span className="security-session-name">
          {name}
          {session.current && <span className="security-badge">{t('security.thisDevice')}</span>}
        </span>
        <span className="security-session-meta">
          {placeName(session, locale) ?? t('security.unknownPlace')} · {t('security.lastActive', { time: formatMessageDate(session.lastActiveAt, Date.now(), locale) })}
        </span>
      </div>
      {!session.current && (
        <button type="button" className="button button-secondary" disabled={busy} onClick={onSignOut} aria-label={`${t('security.signOut')}: ${name}, ${placeName(session, locale) ?? ''}`}>
          {t('security.signOut')}
        </button>
      )}
    </li>
  );
}

function AccountSessions({ accountId, email }: { accountId: string; email: string }) {
  const t = useT();
  const { security } = useMailActions();
  const { run, error, busy } = useSecurityCall();
  const [sessions, setSessions] = useState<readonly SessionInfo[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = useCallback(() => {
    security.sessions({ accountId }).then(setSessions, (cause: unknown) => setLoadError(errorText(t, TernError.from(cause))));
  }, [accountId, security, t]);
  useEffect(refresh, [refresh]);

  const signOut = async (sessionId: string) => {
    setNotice(null);
    if ((await run(() => security.endSession({ accountId, sessionId }).then(() => true))) === true) refresh();
  };
  const signOutOthers = async () => {
    const ended = await run(() => security.endOtherSessions({ accountId }));
    if (ended !== undefined) {
      setNotice(t('security.signedOutOthers', { count: ended }));
      refresh();
    }
  };

  return (
    <section className="settings-group security-section" aria-label={email}>
      <p className="settings-intro">{t('security.sessionsIntro', { email })}</p>
      {sessions === null ? (
        <p className={loadError ? 'field-error' : 'field-hint'} role={loadError ? 'alert' : undefined}>
          {loadError ?? t('security.loading')}
        </p>
      ) : (
        <ul className="security-sessions">
          {/* This device first, then the others as the gateway orders them (most recently active first). */}
          {[...sessions].sort((a, b) => Number(b.current) - Number(a.current)).map((session) => (
            <SessionRow key={session.id} session={session} busy={busy} onSignOut={() => void signOut(session.id)} />
          ))}
        </ul>
      )}
      <FieldError>{error}</FieldError>
      <div className="settings-inline security-actions">
        <button type="button" className="button button-danger" disabled={busy || !sessions || sessions.length < 2} onClick={() => void signOutOthers()}>
          {t('security.signOutOthers')}
        </button>
      </div>
      {notice && (
        <p className="settings-notice" role="status">
          {notice}
        </p>
      )}
    </section>
  );
}

export default function SessionsPage() {
  const { accounts, shown, choose } = useChosenAccount();
  return (
    <div className="settings-sections">
      <AccountPicker accounts={accounts} shown={shown} choose={choose} />
      {shown && <AccountSessions key={shown.accountId} accountId={shown.accountId} email={shown.emailAddress} />}
    </div>
  );
}

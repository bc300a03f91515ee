/**
 * What the sync says about the accounts, when it matters: offline (the mail on screen is
 * the local copy, changes wait), or an account signed out (its session ended).
 */
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { accountsAtom, syncStatusAtom } from '../state/atoms';
import { Icon } from '../kit/icons';

export function SyncBanner() {
  const statuses = useAtomValue(syncStatusAtom);
  const accounts = useAtomValue(accountsAtom) ?? [];
  const all = Object.values(statuses);
  const signedOut = accounts.filter((account) => statuses[account.accountId]?.phase === 'signed-out');
  const offline = all.some((status) => status.phase === 'offline' || status.online === false);
  if (signedOut.length === 0 && !offline) return null;
  return (
    <div className="sync-banners">
      {offline && (
        <p className="sync-banner" role="status">
          <Icon name="monitor" size={16} /> You’re offline. You can still read the mail on this device; changes are sent when you’re back online.
        </p>
      )}
      {signedOut.map((account) => (
        <p key={account.accountId} className="sync-banner sync-banner-error" role="alert">
          <Icon name="spam" size={16} /> {statuses[account.accountId]?.error?.message ?? 'Your session has ended. Please log in again.'} ({account.emailAddress})
          <Link to="/login" search={{ add: '1', email: account.emailAddress }} className="link-button">
            Log in again
          </Link>
        </p>
      ))}
    </div>
  );
}

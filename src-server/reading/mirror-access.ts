import { TernError } from '../../shared/errors';
import type { AccountMirror } from '../mirror/account-mirror';
import type { MirrorManager } from '../mirror/mirror-manager';

/**
 * The running mirror of an account with a live session. A session always has one once
 * the gateway is ready; none means the account's IMAP side is not up (AccountUnavailable).
 */
export function mirrorOf(mirrors: MirrorManager, accountId: number): AccountMirror {
  const mirror = mirrors.get(accountId);
  if (!mirror) throw new TernError('AccountUnavailable');
  return mirror;
}

import { TernError } from '../../shared/errors';
import type { AccountStore } from '../accounts/account-store';
import type { SqlStore } from '../store/sql';
import type { EmailCodes } from './email-codes';
import type { TwoFactorService } from './two-factor-service';

/** The mail with a code: English and German, since the gateway does not know the reader's language. */
export function codeMail(kind: 'verify' | 'login', account: string, code: string): { subject: string; text: string } {
  const why =
    kind === 'verify'
      ? [`You entered this address as the alternate email of ${account} in Tern Mail.`, `Sie haben diese Adresse als alternative E-Mail-Adresse von ${account} in Tern Mail angegeben.`]
      : [`Someone is signing in to ${account} in Tern Mail and asked for a code here.`, `Jemand meldet sich bei ${account} in Tern Mail an und hat hierher einen Code angefordert.`];
  return {
    subject: `Tern Mail code: ${code}`,
    text: [
      why[0],
      `Your code is ${code}. It works once, for 15 minutes. If this was not you, ignore this mail.`,
      '',
      why[1],
      `Ihr Code lautet ${code}. Er gilt einmal und 15 Minuten lang. Wenn Sie das nicht waren, ignorieren Sie diese E-Mail.`,
    ].join('\n'),
  };
}

/**
 * The account's alternate email (issue 19 point 3): set from Settings, confirmed by a code
 * mailed there, then the way back in when the authenticator is lost (ALTERNATE_EMAIL) and the
 * confirmation of an unusual-country sign-in. Changing or removing it while two-factor is on
 * takes a fresh code from the app: a stolen session must not redirect the way back in.
 */
export class AlternateEmailService {
  constructor(
    private readonly deps: {
      store: SqlStore;
      accounts: Pick<AccountStore, 'get'>;
      codes: EmailCodes;
      twoFactor: Pick<TwoFactorService, 'requireFreshCodeIfEnabled'>;
      now?: () => number;
    },
  ) {}

  async get(accountId: number): Promise<{ email: string; verified: boolean } | null> {
    const row = await this.deps.store.get<{ email: string; verified: number }>('SELECT email, verified FROM alternate_emails WHERE account_id = ?', [accountId]);
    return row ? { email: row.email, verified: row.verified === 1 } : null;
  }

  /** The confirmed address, or null. */
  async verified(accountId: number): Promise<string | null> {
    const current = await this.get(accountId);
    return current?.verified ? current.email : null;
  }

  /** Sets a new (unconfirmed) address and mails it a code. */
  async set(accountId: number, email: string, params: { twoFactorCode?: string | undefined; ip: string }): Promise<void> {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound');
    if (email.toLowerCase() === account.email.toLowerCase()) {
      throw new TernError('InvalidParameter', { detail: [{ path: 'email', message: 'The alternate email must be another mailbox than this account.' }] });
    }
    if (!this.deps.codes.available) throw new TernError('SystemMailUnavailable');
    await this.deps.twoFactor.requireFreshCodeIfEnabled(accountId, params.twoFactorCode, params.ip);
    await this.deps.store.run(
      `INSERT INTO alternate_emails (account_id, email, verified, updated_at) VALUES (?, ?, 0, ?)
       ON CONFLICT (account_id) DO UPDATE SET email = excluded.email, verified = 0, updated_at = excluded.updated_at`,
      [accountId, email, (this.deps.now ?? Date.now)()],
    );
    await this.deps.codes.send({ accountId, purpose: 'verify-alternate', to: email, message: (code) => codeMail('verify', account.email, code) });
  }

  /** The code from the mail confirms the address (only the address it was sent to). */
  async confirm(accountId: number, code: string): Promise<void> {
    const sentTo = await this.deps.codes.use({ accountId, purpose: 'verify-alternate', code });
    await this.deps.store.run('UPDATE alternate_emails SET verified = 1 WHERE account_id = ? AND email = ?', [accountId, sentTo]);
  }

  async remove(accountId: number, params: { twoFactorCode?: string | undefined; ip: string }): Promise<void> {
    await this.deps.twoFactor.requireFreshCodeIfEnabled(accountId, params.twoFactorCode, params.ip);
    await this.deps.store.run('DELETE FROM alternate_emails WHERE account_id = ?', [accountId]);
  }

  /** Mails a login code to the confirmed address; resolves with its masked form. AlternateEmailMissing without one. */
  async sendLoginCode(accountId: number): Promise<string> {
    const [account, to] = await Promise.all([this.deps.accounts.get(accountId), this.verified(accountId)]);
    if (!account || !to) throw new TernError('AlternateEmailMissing');
    await this.deps.codes.send({ accountId, purpose: 'login', to, message: (code) => codeMail('login', account.email, code) });
    return to;
  }

  /** Uses a login code; EmailCodeInvalid / EmailCodeExpired as EmailCodes. */
  async useLoginCode(accountId: number, code: string): Promise<void> {
    await this.deps.codes.use({ accountId, purpose: 'login', code });
  }
}

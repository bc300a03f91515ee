/**
 * Unsubscribing from a sender's list (issue 17 point 2), by one of its messages: the gateway
 * reads the List-Unsubscribe it stored when it mirrored that message (never an address a
 * client sends), then does the best thing offered — RFC 8058's one-click POST (one-click.ts),
 * else the mailto form sent through the account's own SMTP, else it hands back the web
 * address for the person to open. Any address that is not http(s) or mailto is refused.
 */
import type { BlockList } from 'node:net';
import type { UnsubscribeResult } from '../../shared/api/unsubscribe';
import { TernError } from '../../shared/errors';
import { checkedUnsubscribeUrl, mailtoParts, unsubscribeSchema, type Unsubscribe } from '../../shared/unsubscribe';
import type { AccountStore } from '../accounts/account-store';
import { buildMime, newMessageIdHeader } from '../smtp/mime-builder';
import type { SmtpConnector } from '../smtp/smtp-connector';
import type { SqlExecutor } from '../store/sql';
import { postOneClick } from './one-click';

export interface UnsubscribeServiceDeps {
  readonly store: SqlExecutor;
  readonly accounts: Pick<AccountStore, 'get' | 'password'>;
  readonly smtp: SmtpConnector;
  /** TERN_UNSUBSCRIBE_ALLOW: non-public ranges the one-click POST may reach. */
  readonly allowed?: BlockList;
  readonly now?: () => Date;
}

export class UnsubscribeService {
  constructor(private readonly deps: UnsubscribeServiceDeps) {}

  async unsubscribe(accountId: number, messageId: number): Promise<UnsubscribeResult> {
    const offer = await this.offerOf(accountId, messageId);
    if (offer.oneClick && offer.http) {
      await postOneClick(offer.http, { ...(this.deps.allowed ? { allowed: this.deps.allowed } : {}) });
      return { method: 'oneClick' };
    }
    if (offer.mailto) return this.mail(accountId, offer.mailto);
    if (offer.http) return { method: 'url', url: checkedUnsubscribeUrl(offer.http).href };
    throw new TernError('UnsubscribeNotOffered');
  }

  private async offerOf(accountId: number, messageId: number): Promise<Unsubscribe> {
    const row = await this.deps.store.get<{ unsubscribe: string | null }>('SELECT unsubscribe FROM messages WHERE account_id = ? AND id = ?', [accountId, messageId]);
    if (!row) throw new TernError('MessageNotFound');
    const parsed = row.unsubscribe ? unsubscribeSchema.safeParse(JSON.parse(row.unsubscribe)) : null;
    if (!parsed?.success) throw new TernError('UnsubscribeNotOffered');
    return parsed.data;
  }

  /** The mailto form (RFC 6068's to, subject and body), from the account's address through its SMTP. */
  private async mail(accountId: number, mailto: string): Promise<UnsubscribeResult> {
    const { to, subject, body } = mailtoParts(mailto);
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('AccountNotFound');
    const raw = await buildMime(
      {
        from: { name: '', email: account.email },
        to: [{ name: '', email: to }],
        cc: [],
        bcc: [],
        // One line each: a mailto's subject is a stranger's text.
        subject: subject.replace(/[\r\n]+/g, ' ').slice(0, 200),
        html: null,
        text: body.slice(0, 2000),
        inReplyTo: null,
        references: [],
        attachments: [],
        messageIdHeader: newMessageIdHeader(account.email),
        date: (this.deps.now ?? (() => new Date()))(),
      },
      { keepBcc: false },
    );
    try {
      await this.deps.smtp.send({ account, password: await this.deps.accounts.password(accountId), envelope: { from: account.email, to: [to] }, raw });
    } catch (error) {
      throw new TernError('UnsubscribeFailed', { detail: { reason: error instanceof Error ? error.message : String(error) } });
    }
    return { method: 'mailto', to };
  }
}

import { createHash } from 'node:crypto';
import { openSmtpSession, type SmtpConnector, type SmtpOutcome, type SmtpSendParams, type SmtpSession } from './smtp-connector';

export interface SmtpPoolOptions {
  /** How long a connection waits for the account's next message before it QUITs. */
  readonly idleMs: number;
  /** Messages per connection, then a new one (a server may limit a session's messages; nodemailer's own pool also sends 100). */
  readonly maxMessages: number;
}

export const DEFAULT_SMTP_POOL_OPTIONS: SmtpPoolOptions = { idleMs: 5_000, maxMessages: 100 };

interface Kept {
  readonly session: SmtpSession;
  messages: number;
  timer: NodeJS.Timeout | null;
}

/**
 * The outbox's SMTP: an account's consecutive messages share one logged-in connection instead
 * of a TCP connect, greeting, EHLO, STARTTLS and AUTH each (issue 15's benchmark: a burst of
 * scheduled sends). The outbox sends one message of an account at a time (its job lane), so
 * one connection per account is kept; it QUITs after `idleMs` without a message or after
 * `maxMessages`. A connection is only kept after a message it carried was accepted.
 *
 * Exactly once still holds: each message's commit point is written before its own final "."
 * as on a fresh connection. A kept connection the server has closed meanwhile (its idle
 * timeout, a 421) fails the next message before that point — nothing of it was taken — and
 * that message goes again at once on a new connection; a failure after the commit point is
 * the outbox's to judge (unknown), never retried here.
 */
export class PooledSmtp implements SmtpConnector {
  private readonly options: SmtpPoolOptions;
  /** Idle connections by account and settings (one each). */
  private readonly idle = new Map<string, Kept>();

  constructor(options: Partial<SmtpPoolOptions> = {}) {
    this.options = { ...DEFAULT_SMTP_POOL_OPTIONS, ...options };
  }

  async send(params: SmtpSendParams): Promise<SmtpOutcome> {
    const key = keyOf(params);
    const kept = this.take(key);
    if (kept) {
      let committing = false;
      const onCommit = async () => {
        committing = true;
        await params.onCommit?.();
      };
      try {
        return await this.transmit(key, kept, { ...params, onCommit });
      } catch (error) {
        if (committing || !connectionLost(error)) throw error;
      }
    }
    const fresh: Kept = { session: await openSmtpSession(params), messages: 0, timer: null };
    // Closed by the server while idle: forgotten at once.
    fresh.session.onEnd(() => {
      if (this.idle.get(key) === fresh) this.idle.delete(key);
      if (fresh.timer) clearTimeout(fresh.timer);
    });
    return this.transmit(key, fresh, params);
  }

  /** QUITs the idle connections (a stopping gateway). */
  close(): void {
    for (const kept of this.idle.values()) this.drop(kept);
    this.idle.clear();
  }

  private async transmit(key: string, kept: Kept, params: SmtpSendParams): Promise<SmtpOutcome> {
    let outcome: SmtpOutcome;
    try {
      outcome = await kept.session.transmit(params);
    } catch (error) {
      // A refused or failed message ends its connection: the next one starts clean.
      kept.session.close();
      throw error;
    }
    kept.messages++;
    this.keep(key, kept);
    return outcome;
  }

  private take(key: string): Kept | undefined {
    const kept = this.idle.get(key);
    if (!kept) return undefined;
    this.idle.delete(key);
    if (kept.timer) clearTimeout(kept.timer);
    kept.timer = null;
    return kept.session.dead ? undefined : kept;
  }

  private keep(key: string, kept: Kept): void {
    // Spent, gone, or another connection of the account is idle already (two sends overlapped).
    if (kept.messages >= this.options.maxMessages || kept.session.dead || this.idle.has(key)) return this.drop(kept);
    kept.timer = setTimeout(() => {
      if (this.idle.get(key) === kept) this.idle.delete(key);
      this.drop(kept);
    }, this.options.idleMs);
    kept.timer.unref();
    this.idle.set(key, kept);
  }

  private drop(kept: Kept): void {
    if (kept.timer) clearTimeout(kept.timer);
    kept.timer = null;
    if (!kept.session.dead) kept.session.quit();
  }
}

/** An account's connection serves only the same server, login and password (a changed password opens a new one). */
function keyOf({ account, password }: SmtpSendParams): string {
  const { host, port, security } = account.smtp;
  return createHash('sha256').update(JSON.stringify([account.email, host, port, security, password])).digest('hex');
}

/** No reply from the server, or its 421 "closing": the connection is gone, not the message refused. */
function connectionLost(error: unknown): boolean {
  const responseCode = (error as { responseCode?: number } | null)?.responseCode;
  return responseCode === undefined || responseCode === 421;
}

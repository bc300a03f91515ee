import { createTransport } from 'nodemailer';
import type { AccountRecord } from '../accounts/account-store';

export interface SmtpEnvelope {
  readonly from: string;
  /** Every recipient, Bcc included. */
  readonly to: readonly string[];
}

/** What the server said when it took the message. */
export interface SmtpOutcome {
  readonly response: string;
  readonly accepted: readonly string[];
  /** Recipients refused while others were accepted (all refused is an error). */
  readonly rejected: readonly string[];
}

export interface SmtpSendParams {
  readonly account: Pick<AccountRecord, 'email' | 'smtp'>;
  readonly password: string;
  readonly envelope: SmtpEnvelope;
  /** The finished message, sent byte for byte (its Message-ID is already fixed). */
  readonly raw: Buffer;
}

/** How mail leaves the gateway. The outbox only knows this interface; tests bring their own. */
export interface SmtpConnector {
  send(params: SmtpSendParams): Promise<SmtpOutcome>;
}

/** nodemailer's TLS switches for our three security modes. */
export function smtpTlsOptions(security: AccountRecord['smtp']['security']): { secure: boolean; requireTLS: boolean; ignoreTLS: boolean } {
  if (security === 'tls') return { secure: true, requireTLS: false, ignoreTLS: false };
  if (security === 'starttls') return { secure: false, requireTLS: true, ignoreTLS: false };
  return { secure: false, requireTLS: false, ignoreTLS: true };
}

/**
 * SMTP with nodemailer, one connection per message with the account's own server and
 * password (AUTH only when the server offers it). Timeouts are bounded so a stalled
 * server costs one attempt, not the outbox.
 */
export class NodemailerSmtp implements SmtpConnector {
  async send({ account, password, envelope, raw }: SmtpSendParams): Promise<SmtpOutcome> {
    const transport = createTransport({
      host: account.smtp.host,
      port: account.smtp.port,
      ...smtpTlsOptions(account.smtp.security),
      auth: { user: account.email, pass: password },
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      logger: false,
    });
    try {
      const info = await transport.sendMail({ envelope: { from: envelope.from, to: [...envelope.to] }, raw });
      const flat = (list: unknown[] | undefined) => (list ?? []).map((entry) => (typeof entry === 'string' ? entry : String((entry as { address?: string }).address ?? entry)));
      return { response: String(info.response ?? ''), accepted: flat(info.accepted), rejected: flat(info.rejected) };
    } finally {
      transport.close();
    }
  }
}

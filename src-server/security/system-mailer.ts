import { createTransport } from 'nodemailer';
import type { SystemMailConfig } from '../config';
import { smtpTlsOptions } from '../smtp/smtp-connector';

/** One plain-text message from the gateway itself (not from any account). */
export interface SystemMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** How the gateway sends its own mail; tests and an embedding may bring another. */
export interface SystemMailer {
  send(message: SystemMessage): Promise<void>;
}

/**
 * The gateway's own mail through the operator's relay (TERN_SYSTEM_SMTP_*): codes to alternate
 * addresses. One connection per message: they are rare, and a stale pooled connection would
 * only turn into a late failure. Bounded timeouts, so a dead relay fails the request quickly.
 */
export class SmtpSystemMailer implements SystemMailer {
  constructor(private readonly config: SystemMailConfig) {}

  async send(message: SystemMessage): Promise<void> {
    const { server, user, password, from } = this.config;
    const transport = createTransport({
      host: server.host,
      port: server.port,
      ...smtpTlsOptions(server.security),
      ...(user && password ? { auth: { user, pass: password } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    } finally {
      transport.close();
    }
  }
}

import { once } from 'node:events';
import { Readable, type Transform, type Writable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
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
  /**
   * Called just before the final "." of DATA is written, and awaited: the dot leaves only once
   * it has resolved (the outbox's commit point is then in its database). Up to here a dropped
   * connection means the server discarded the message; after it, the server may have taken it.
   * If it throws or rejects, the dot is not written and the attempt fails.
   */
  readonly onCommit?: () => void | Promise<void>;
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
 * SMTP with nodemailer's SMTPConnection, one connection per message with the account's own
 * server and password (AUTH only when the server offers it). Timeouts are bounded so a
 * stalled server costs one attempt, not the outbox. nodemailer's transport hides the moment
 * the final "." is written; driving the connection ourselves, the message body is our own
 * stream, which calls `onCommit` once everything before the dot has gone to the socket and
 * only then lets nodemailer end the data (and write the dot). The outbox keeps connections
 * open between an account's messages (smtp-pool.ts).
 */
export class NodemailerSmtp implements SmtpConnector {
  async send(params: SmtpSendParams): Promise<SmtpOutcome> {
    const session = await openSmtpSession(params);
    try {
      const outcome = await session.transmit(params);
      session.quit();
      return outcome;
    } catch (error) {
      session.close();
      throw error;
    }
  }
}

/** One logged-in SMTP connection; `transmit` may be called again once the last one ended well. */
export interface SmtpSession {
  /** Sends one message (MAIL FROM … the final "." and its reply), with the commit point of `onCommit`. */
  transmit(params: Pick<SmtpSendParams, 'envelope' | 'raw' | 'onCommit'>): Promise<SmtpOutcome>;
  /** The connection failed or the server ended it: it takes no more messages. */
  readonly dead: boolean;
  /** Told once when the connection ends or fails (also while idle). */
  onEnd(listener: () => void): void;
  /** QUIT, politely. */
  quit(): void;
  /** Closes the socket at once. */
  close(): void;
}

/** Connects (and logs in when the server offers AUTH) with the account's settings. */
export function openSmtpSession({ account, password }: Pick<SmtpSendParams, 'account' | 'password'>): Promise<SmtpSession> {
  const connection = new SMTPConnection({
    host: account.smtp.host,
    port: account.smtp.port,
    ...smtpTlsOptions(account.smtp.security),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    logger: false,
  });
  let dead = false;
  let failure: ((error: unknown) => void) | null = null;
  const ended: (() => void)[] = [];
  const end = (error: unknown) => {
    if (!dead) {
      dead = true;
      for (const listener of ended.splice(0)) listener();
    }
    failure?.(error);
  };
  connection.on('error', (error: unknown) => end(error));
  connection.on('end', () => end(new Error('The mail server closed the connection.')));
  const session: SmtpSession = {
    get dead() {
      return dead;
    },
    onEnd: (listener) => void (dead ? listener() : ended.push(listener)),
    quit: () => connection.quit(),
    close: () => connection.close(),
    transmit: ({ envelope, raw, onCommit }) => {
      if (dead) return Promise.reject(Object.assign(new Error('The connection to the mail server has ended.'), { code: 'ECONNECTION' }));
      return new Promise<SmtpOutcome>((resolve, reject) => {
        let done = false;
        const finish = (error: unknown, outcome?: SmtpOutcome) => {
          if (done) return;
          done = true;
          failure = null;
          if (outcome) resolve(outcome);
          else reject(error);
        };
        failure = (error) => finish(error);
        // nodemailer has no public socket: its private one is only read, to wait until the body has
        // left it; without it the commit point is merely written a little before it need be.
        const body = committingBody(raw, async () => onCommit?.(), () => (connection as unknown as { _socket?: Writable })._socket);
        connection.send({ from: envelope.from, to: [...envelope.to] }, body, (error, info) => {
          if (error) return finish(error);
          finish(null, { response: String(info.response ?? ''), accepted: flat(info.accepted), rejected: flat(info.rejected) });
        });
      });
    },
  };
  return new Promise<SmtpSession>((resolve, reject) => {
    failure = (error) => {
      failure = null;
      connection.close();
      reject(error);
    };
    const ready = () => {
      failure = null;
      resolve(session);
    };
    connection.connect((error) => {
      if (error) return failure?.(error);
      if (!connection.allowsAuth) return ready();
      connection.login({ user: account.email, pass: password }, (loginError) => (loginError ? failure?.(loginError) : ready()));
    });
  });
}

const flat = (list: unknown[] | undefined) => (list ?? []).map((entry) => (typeof entry === 'string' ? entry : String((entry as { address?: string }).address ?? entry)));

/**
 * The message as a stream whose `pipe` nodemailer calls with its data stream (which dot-stuffs
 * and, when ended, appends the final "."). The body goes in first; when it has left for the
 * socket, `onCommit` runs and is awaited, then the data stream is ended: the commit point is
 * written before the dot leaves. If it rejects (the outbox cannot record the commit point) the
 * dot is never written and the attempt fails.
 */
function committingBody(raw: Buffer, onCommit: () => Promise<void>, socketOf: () => Writable | undefined): Readable {
  const body = new Readable({ read() {} });
  body.pipe = <T extends NodeJS.WritableStream>(destination: T): T => {
    const data = destination as unknown as Transform;
    data.write(raw);
    flushed(data, socketOf()).then(
      async () => {
        await onCommit();
        // The connection may have gone while the commit point was written: then no dot either.
        if (data.destroyed) throw new Error('The connection to the mail server was lost while sending the message.');
        data.end();
      },
    ).catch((error: unknown) => body.emit('error', error));
    return destination;
  };
  return body;
}

/** Resolves once the data stream and the socket hold nothing unsent (the body is with the kernel). */
async function flushed(data: Transform, socket: Writable | undefined): Promise<void> {
  for (;;) {
    if (data.destroyed || socket?.destroyed) throw new Error('The connection to the mail server was lost while sending the message.');
    if (socket?.writableNeedDrain) await Promise.race([once(socket, 'drain'), once(socket, 'close')]);
    else if (data.writableLength > 0 || data.readableLength > 0 || (socket?.writableLength ?? 0) > 0) await new Promise((resolve) => setImmediate(resolve));
    else return;
  }
}

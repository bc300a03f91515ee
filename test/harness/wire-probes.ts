// Tiny line-protocol probes used by the harness to know when Dovecot/Postfix
// are really serving (a listening socket is not enough: Postfix's master
// accepts before smtpd has read its config) and when a Postfix reload has
// taken effect. Raw sockets keep this free of nodemailer/imapflow quirks.
import net from 'node:net';

const HOST = '127.0.0.1';

/** Connects and resolves with the first line the server sends. */
export function readGreeting(port: number, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: HOST, port });
    let buf = '';
    const done = (err: Error | null, line?: string) => {
      socket.destroy();
      if (err) reject(err);
      else resolve(line ?? '');
    };
    socket.setTimeout(timeoutMs, () => done(new Error(`no greeting on ${HOST}:${port} after ${timeoutMs} ms`)));
    socket.on('error', (err) => done(err));
    socket.on('data', (chunk: Buffer) => {
      buf += chunk.toString('latin1');
      const nl = buf.indexOf('\n');
      if (nl >= 0) done(null, buf.slice(0, nl).replace(/\r$/, ''));
    });
    socket.on('end', () => done(new Error(`connection to ${HOST}:${port} closed before a greeting`)));
  });
}

/**
 * Polls until the first line on `port` matches `pattern`. `abort` is checked
 * between attempts so a server that died is reported at once, not after the
 * timeout.
 */
export async function waitForGreeting(opts: {
  port: number;
  pattern: RegExp;
  timeoutMs: number;
  abort?: () => Error | null;
}): Promise<string> {
  const deadline = Date.now() + opts.timeoutMs;
  let last = 'no attempt made';
  for (;;) {
    const aborted = opts.abort?.();
    if (aborted) throw aborted;
    try {
      const line = await readGreeting(opts.port, Math.max(200, Math.min(2000, deadline - Date.now())));
      if (opts.pattern.test(line)) return line;
      last = `unexpected greeting ${JSON.stringify(line)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() >= deadline) {
      throw new Error(`no ${String(opts.pattern)} greeting on ${HOST}:${opts.port} within ${opts.timeoutMs} ms (${last})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Minimal SMTP session: EHLO, MAIL FROM:<>, one RCPT per address, QUIT.
 * Resolves with the reply code per recipient (250 = Postfix accepts it).
 * Nothing is sent, so no mail is generated.
 */
export function smtpRcptCodes(port: number, recipients: readonly string[], timeoutMs = 5000): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: HOST, port });
    const codes = new Map<string, number>();
    // Commands are sent one at a time (no pipelining) after each final reply.
    const queue = ['EHLO harness.probe', 'MAIL FROM:<>', ...recipients.map((r) => `RCPT TO:<${r}>`), 'QUIT'];
    let sent: string | null = null;
    let buf = '';
    let settled = false;
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (err) reject(err);
      else resolve(codes);
    };
    socket.setTimeout(timeoutMs, () => finish(new Error(`SMTP probe on ${HOST}:${port} timed out`)));
    socket.on('error', (err) => finish(err));
    socket.on('close', () => finish(codes.size === recipients.length ? null : new Error('SMTP probe: connection closed early')));
    socket.on('data', (chunk: Buffer) => {
      buf += chunk.toString('latin1');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).replace(/\r$/, '');
        buf = buf.slice(nl + 1);
        if (/^\d{3}-/.test(line)) continue; // continuation line of a multi-line reply
        const code = Number(line.slice(0, 3));
        if (sent === null && code !== 220) return finish(new Error(`SMTP probe: bad greeting ${line}`));
        if (sent?.startsWith('RCPT TO:<')) codes.set(sent.slice(9, -1), code);
        if (sent === 'QUIT') return finish(null);
        const next = queue.shift();
        if (next === undefined) return finish(null);
        sent = next;
        socket.write(`${next}\r\n`);
      }
    });
  });
}

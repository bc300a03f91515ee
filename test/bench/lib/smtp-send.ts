/**
 * Hands one message to the harness's Postfix over a plain socket and resolves the moment
 * Postfix answers 250 to the end of DATA — "accepted by SMTP", the start of the new-mail
 * clock — with that moment (performance.now()).
 */
import net from 'node:net';

export interface SmtpMessage {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export async function sendBySmtp(params: { host: string; port: number; message: SmtpMessage }): Promise<{ acceptedAt: number }> {
  const socket = net.connect({ host: params.host, port: params.port, noDelay: true });
  let buffer = '';
  const waiters: ((line: string) => void)[] = [];
  const replies: string[] = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    for (;;) {
      const lf = buffer.indexOf('\n');
      if (lf === -1) break;
      const line = buffer.slice(0, lf).replace(/\r$/, '');
      buffer = buffer.slice(lf + 1);
      // Multi-line replies ("250-…") end at the line with a space after the code.
      if (/^\d{3} /.test(line) || !/^\d{3}-/.test(line)) {
        const waiter = waiters.shift();
        if (waiter) waiter(line);
        else replies.push(line);
      }
    }
  });
  const failed = new Promise<never>((_, reject) => {
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('SMTP connection closed early')));
  });
  failed.catch(() => undefined);
  const reply = () => Promise.race([new Promise<string>((resolve) => (replies.length > 0 ? resolve(replies.shift()!) : waiters.push(resolve))), failed]);
  const expect = async (code: string, what: string) => {
    const line = await reply();
    if (!line.startsWith(code)) throw new Error(`SMTP ${what}: ${line}`);
  };
  try {
    await expect('220', 'greeting');
    socket.write('EHLO bench.tern.test\r\n');
    await expect('250', 'EHLO');
    socket.write(`MAIL FROM:<${params.message.from}>\r\n`);
    await expect('250', 'MAIL FROM');
    socket.write(`RCPT TO:<${params.message.to}>\r\n`);
    await expect('250', 'RCPT TO');
    socket.write('DATA\r\n');
    await expect('354', 'DATA');
    const { from, to, subject, text } = params.message;
    const id = `<${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}@bench.tern.test>`;
    const body = [
      `From: Bench Sender <${from}>`,
      `To: <${to}>`,
      `Subject: ${subject}`,
      `Date: ${new Date().toUTCString().replace('GMT', '+0000')}`,
      `Message-ID: ${id}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      ...text.split('\n').map((line) => (line.startsWith('.') ? `.${line}` : line)),
    ].join('\r\n');
    socket.write(`${body}\r\n.\r\n`);
    await expect('250', 'end of DATA');
    const acceptedAt = performance.now();
    socket.write('QUIT\r\n');
    socket.end();
    return { acceptedAt };
  } finally {
    socket.removeAllListeners('close');
    socket.destroy();
  }
}

/**
 * Postfix's own account of its deliveries to `recipient` (the `delays=a/b/c/d` of each
 * `status=sent` line of its log: before the queue manager, in the queue manager,
 * connection setup, transmission — seconds), the last `count` of them.
 */
export function postfixDelays(logText: string, recipient: string, count: number): { total: number; parts: number[] }[] {
  const delays: { total: number; parts: number[] }[] = [];
  for (const line of logText.split('\n')) {
    if (!line.includes(`to=<${recipient}>`) || !line.includes('status=sent')) continue;
    const match = /delays=([\d.]+)\/([\d.]+)\/([\d.]+)\/([\d.]+)/.exec(line);
    if (!match) continue;
    const parts = match.slice(1, 5).map(Number);
    delays.push({ total: parts.reduce((sum, part) => sum + part, 0), parts });
  }
  return delays.slice(-count);
}

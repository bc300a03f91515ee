// A loopback TCP proxy between the gateway and a real mail server (the harness's Postfix or
// Dovecot) that injects one fault at an exact protocol moment, so the crash points of a send or
// a draft save can be hit on purpose: the server itself is real and does its real work.
//
//   smtp-hold-after-dot  the message's final "." reaches Postfix (which takes the message), its
//                        reply is held back from the gateway until `release()` — a slow 250
//   smtp-drop-after-dot  the same, then the gateway's connection is cut before any reply
//   smtp-drop-before-dot the body reaches Postfix but not its final "."; both sides are cut, so
//                        Postfix drops the unfinished message
//   imap-drop-after-append  Dovecot stores an APPEND; its OK never reaches the gateway, whose
//                        connection is cut (a save killed between APPEND and what follows)
//   imap-hold-after-append  the same OK held back until `release()` (kill the gateway meanwhile)
//
// `refuseAppends(true)` is a lasting fault instead: every APPEND is answered NO [OVERQUOTA]
// by the proxy and never reaches Dovecot (a full mailbox, a Sent copy that cannot be filed).
import net from 'node:net';

export type FaultKind = 'smtp-hold-after-dot' | 'smtp-drop-after-dot' | 'smtp-drop-before-dot' | 'imap-drop-after-append' | 'imap-hold-after-append';

export interface FaultProxy {
  readonly port: number;
  /** Arms one fault: the next matching moment on any connection fires it (then it is disarmed). */
  arm(kind: FaultKind): Promise<void>;
  /** Lets a held reply through (or, with `drop`, cuts the held connection instead). */
  release(mode?: 'deliver' | 'drop'): void;
  disarm(): void;
  /** While on, every IMAP APPEND is refused with NO [OVERQUOTA] (and not passed on). */
  refuseAppends(on: boolean): void;
  /** Cuts every connection (a gateway that died has none left). */
  dropAll(): void;
  close(): Promise<void>;
}

const DOT = Buffer.from('\r\n.\r\n');

/**
 * The proxy reads the IMAP stream, so the client must not turn on COMPRESS=DEFLATE (Cyrus
 * offers it, imapflow takes it): the capability is taken out of CAPABILITY lines.
 */
function withoutCompress(chunk: Buffer): Buffer {
  const text = chunk.toString('latin1');
  if (!/CAPABILITY[^\r\n]* COMPRESS=DEFLATE/.test(text)) return chunk;
  return Buffer.from(text.replace(/^(.*CAPABILITY[^\r\n]*?) COMPRESS=DEFLATE/gm, '$1'), 'latin1');
}

interface Armed {
  readonly kind: FaultKind;
  readonly fire: () => void;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let armed: Armed | null = null;
  let refusing = false;
  /** Connections whose server reply is held: `resume` lets it through, `cut` ends both sides. */
  const held: { client: net.Socket; resume: () => void; cut: () => void }[] = [];
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => {
      if (!held.some((entry) => entry.client === client)) upstream.end();
    });
    upstream.on('close', () => client.destroy());

    let inData = false; // SMTP: after the server's 354, until the final "."
    let tail = Buffer.alloc(0); // the last bytes sent in DATA, for a "." split across chunks
    let holding: { replies: Buffer[] } | null = null;
    /** From now on the server's replies wait in `held` until released. */
    const hold = (first: Buffer[]) => {
      const replies = [...first];
      holding = { replies };
      held.push({
        client,
        resume: () => {
          holding = null;
          for (const reply of replies) client.write(reply);
        },
        cut: () => {
          client.destroy();
          upstream.destroy();
        },
      });
    };

    upstream.on('data', (chunk: Buffer) => {
      if (holding) {
        holding.replies.push(chunk);
        return;
      }
      const text = chunk.toString('latin1');
      if (/^354[ -]/m.test(text)) inData = true;
      if (armed?.kind.startsWith('imap-') && /^\S+ OK \[APPENDUID /m.test(text)) {
        const fault = armed;
        armed = null;
        // The APPEND is stored; the gateway does not hear so (cut now, or held).
        if (fault.kind === 'imap-hold-after-append') {
          hold([chunk]);
        } else {
          client.destroy();
          upstream.end();
        }
        fault.fire();
        return;
      }
      client.write(withoutCompress(chunk));
    });

    // IMAP APPEND refusal: the command line is held until whole; its literal is skipped.
    let pending = Buffer.alloc(0);
    let skip = 0;
    let refusedTag = '';
    const refuseAppend = (chunk: Buffer): Buffer => {
      let data = Buffer.concat([pending, chunk]);
      pending = Buffer.alloc(0);
      let out = Buffer.alloc(0);
      while (data.length > 0) {
        if (skip > 0) {
          const n = Math.min(skip, data.length);
          skip -= n;
          data = data.subarray(n);
          // The whole command has been read: now it is refused, as a server would after the literal.
          if (skip === 0) client.write(`${refusedTag} NO [OVERQUOTA] Quota exceeded (mailbox is full) (fault proxy)\r\n`);
          continue;
        }
        const eol = data.indexOf('\r\n');
        if (eol < 0) {
          pending = data;
          break;
        }
        const line = data.subarray(0, eol + 2);
        data = data.subarray(eol + 2);
        const append = /^(\S+) APPEND .*\{(\d+)(\+?)\}\r\n$/i.exec(line.toString('latin1'));
        if (!append) {
          out = Buffer.concat([out, line]);
          continue;
        }
        // The literal (and the CRLF ending the command) is swallowed; a synchronising literal gets its "+" first.
        skip = Number(append[2]) + 2;
        if (append[3] !== '+') client.write('+ go ahead\r\n');
        refusedTag = append[1]!;
      }
      return out;
    };

    client.on('data', (chunk: Buffer) => {
      if (refusing || pending.length > 0 || skip > 0) {
        const rest = refuseAppend(chunk);
        if (rest.length > 0) upstream.write(rest);
        return;
      }
      if (!inData || !armed || !armed.kind.startsWith('smtp-')) {
        upstream.write(chunk);
        return;
      }
      const joined = Buffer.concat([tail, chunk]);
      const at = joined.indexOf(DOT);
      tail = joined.subarray(Math.max(0, joined.length - DOT.length + 1));
      if (at < 0) {
        upstream.write(chunk);
        return;
      }
      inData = false;
      const fault = armed;
      armed = null;
      if (fault.kind === 'smtp-drop-before-dot') {
        // Everything up to the line before the dot, then nothing: Postfix sees a lost connection mid-DATA.
        const dotInChunk = at - (joined.length - chunk.length);
        if (dotInChunk > 0) upstream.write(chunk.subarray(0, dotInChunk));
        upstream.destroy();
        client.destroy();
        fault.fire();
        return;
      }
      hold([]);
      upstream.write(chunk, () => {
        if (fault.kind === 'smtp-drop-after-dot') {
          // Only the gateway's side is cut: Postfix, which has the ".", gets a clean end after it.
          held.splice(held.findIndex((entry) => entry.client === client), 1);
          client.destroy();
        }
        fault.fire();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  const release = (mode: 'deliver' | 'drop' = 'deliver') => {
    for (const entry of held.splice(0)) {
      if (mode === 'drop') entry.cut();
      else entry.resume();
    }
  };
  const dropAll = () => {
    held.splice(0);
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    arm(kind) {
      return new Promise<void>((resolve) => {
        armed = { kind, fire: resolve };
      });
    },
    release,
    refuseAppends(on) {
      refusing = on;
    },
    disarm() {
      armed = null;
    },
    dropAll,
    async close() {
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

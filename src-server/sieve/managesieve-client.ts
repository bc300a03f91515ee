/**
 * A ManageSieve client (RFC 5804) over node:net / node:tls: greeting and capabilities,
 * STARTTLS, AUTHENTICATE PLAIN, and the script commands the rules service needs. One command
 * at a time per connection (the protocol has no tags); each call waits for its OK/NO/BYE.
 * A NO comes back as a SieveCommandError carrying the server's response code and text, so the
 * caller maps QUOTA/* to TooLargeSieveUpdate and a CHECKSCRIPT complaint to its own error.
 */
import net from 'node:net';
import tls from 'node:tls';
import { readCapabilities, statusOf, WireProtocolError, WireReader, wireString, type SieveCapabilities, type WireLine, type WireResponse } from './wire-parser';

export type SieveSecurity = 'starttls' | 'tls' | 'none';

export interface SieveEndpoint {
  readonly host: string;
  readonly port: number;
  /**
   * 'starttls' is ManageSieve's usual (port 4190): required, and the certificate verified.
   * 'none' (a server the operator says has no TLS, e.g. on loopback) still upgrades when the
   * server offers STARTTLS, so the password never crosses a link TLS could have protected.
   */
  readonly security: SieveSecurity;
}

export interface ConnectParams extends SieveEndpoint {
  readonly user: string;
  readonly password: string;
  /** Each step (connect, a command) fails after this long. Default 15 s. */
  readonly timeoutMs?: number;
  /** Passed to tls.connect (tests trust a self-signed certificate). */
  readonly tlsOptions?: tls.ConnectionOptions;
}

/** The server said NO (or BYE) to a command. */
export class SieveCommandError extends Error {
  override readonly name = 'SieveCommandError';
  constructor(
    readonly command: string,
    readonly response: Pick<WireResponse, 'status' | 'code' | 'text'>,
  ) {
    super(`${command}: ${response.status}${response.code.length ? ` (${response.code.join(' ')})` : ''} ${response.text}`.trim());
  }

  /** QUOTA, QUOTA/MAXSIZE, QUOTA/MAXSCRIPTS: the server refuses the size or count. */
  get isQuota(): boolean {
    return this.response.code[0]?.startsWith('QUOTA') ?? false;
  }
}

/** The connection failed, closed, timed out, or the server spoke something else. */
export class SieveConnectionError extends Error {
  override readonly name = 'SieveConnectionError';
}

export interface ScriptEntry {
  readonly name: string;
  readonly active: boolean;
}

interface Pending {
  readonly command: string;
  readonly lines: WireLine[];
  readonly resolve: (response: WireResponse) => void;
  readonly reject: (error: Error) => void;
}

export class ManageSieveClient {
  private reader = new WireReader();
  private pending: Pending | undefined;
  private readonly backlog: WireLine[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private closedError: Error | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The server's capabilities as last announced. */
  capabilities!: SieveCapabilities;
  /** Whether the link is encrypted (implicit TLS or after STARTTLS). */
  secure = false;

  private constructor(
    private socket: net.Socket,
    private readonly timeoutMs: number,
  ) {
    this.attach(socket);
  }

  /** Connects, upgrades to TLS as the endpoint says, and logs in with SASL PLAIN. */
  static async connect(params: ConnectParams): Promise<ManageSieveClient> {
    const timeoutMs = params.timeoutMs ?? 15_000;
    const socket = await openSocket(params, timeoutMs);
    const client = new ManageSieveClient(socket, timeoutMs);
    try {
      client.secure = params.security === 'tls';
      client.capabilities = readCapabilities((await client.await('greeting')).data);
      if (params.security === 'starttls' && !client.capabilities.starttls) throw new SieveConnectionError('The server does not offer STARTTLS');
      // Asked for, or offered: SASL PLAIN is the password itself, so it goes over TLS whenever TLS is there.
      if (!client.secure && client.capabilities.starttls) {
        await client.command('STARTTLS', [Buffer.from('STARTTLS')]);
        // A server the operator calls plaintext gets TLS without a verified certificate (opportunistic,
        // as Postfix's "may"): that still keeps the password from anyone only listening.
        await client.upgrade({ ...params, tlsOptions: params.security === 'none' ? { rejectUnauthorized: false, ...params.tlsOptions } : params.tlsOptions });
        // RFC 5804 §2.2: the server sends its capabilities again after the handshake.
        client.capabilities = readCapabilities((await client.await('greeting after STARTTLS')).data);
      }
      if (!client.capabilities.sasl.includes('PLAIN')) throw new SieveConnectionError(`The server offers no SASL PLAIN (${client.capabilities.sasl.join(' ') || 'none'})`);
      const plain = Buffer.from(`\0${params.user}\0${params.password}`, 'utf8').toString('base64');
      await client.command('AUTHENTICATE', [Buffer.from('AUTHENTICATE "PLAIN" '), wireString(plain)]);
      return client;
    } catch (error) {
      client.destroy();
      throw error;
    }
  }

  async listScripts(): Promise<ScriptEntry[]> {
    const { data } = await this.command('LISTSCRIPTS', [Buffer.from('LISTSCRIPTS')]);
    return data.flatMap((line) => {
      const [name, flag] = line;
      if (name?.kind !== 'string') return [];
      return [{ name: name.value, active: flag?.kind === 'atom' && flag.value.toUpperCase() === 'ACTIVE' }];
    });
  }

  /** The script's text; NO (NONEXISTENT) when there is none of that name. */
  async getScript(name: string): Promise<string> {
    const { data } = await this.command('GETSCRIPT', [Buffer.from('GETSCRIPT '), wireString(name)]);
    const token = data[0]?.[0];
    return token?.kind === 'string' ? token.value : '';
  }

  /** Checks a script without storing it; resolves with the server's warnings ('' when none). */
  async checkScript(script: string): Promise<string> {
    const response = await this.command('CHECKSCRIPT', [Buffer.from('CHECKSCRIPT '), literal(script)]);
    return response.code[0] === 'WARNINGS' ? response.text : '';
  }

  async putScript(name: string, script: string): Promise<void> {
    await this.command('PUTSCRIPT', [Buffer.from('PUTSCRIPT '), wireString(name), Buffer.from(' '), literal(script)]);
  }

  /** Makes the script the active one ('' deactivates every script). */
  async setActive(name: string): Promise<void> {
    await this.command('SETACTIVE', [Buffer.from('SETACTIVE '), wireString(name)]);
  }

  /** Whether a script of this size may be stored (NO (QUOTA/…) otherwise). */
  async haveSpace(name: string, bytes: number): Promise<void> {
    await this.command('HAVESPACE', [Buffer.from('HAVESPACE '), wireString(name), Buffer.from(` ${bytes}`)]);
  }

  async deleteScript(name: string): Promise<void> {
    await this.command('DELETESCRIPT', [Buffer.from('DELETESCRIPT '), wireString(name)]);
  }

  /** Says LOGOUT and closes; never throws (the rules are already saved or not). */
  async logout(): Promise<void> {
    try {
      if (!this.closedError) await this.command('LOGOUT', [Buffer.from('LOGOUT')]);
    } catch {
      // A server that closes before its OK has still logged us out.
    } finally {
      this.destroy();
    }
  }

  destroy(): void {
    this.fail(new SieveConnectionError('closed'));
    this.socket.destroy();
  }

  /** Sends one command and waits for its whole answer; NO/BYE reject with SieveCommandError. */
  private command(name: string, parts: Buffer[]): Promise<WireResponse> {
    const run = async () => {
      const answer = this.await(name);
      this.socket.write(Buffer.concat([...parts, Buffer.from('\r\n')]));
      return answer;
    };
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** The next complete response (lines up to a status line). */
  private await(command: string): Promise<WireResponse> {
    if (this.closedError) return Promise.reject(this.closedError);
    return new Promise<WireResponse>((resolve, reject) => {
      this.pending = { command, lines: [], resolve, reject };
      this.timer = setTimeout(() => this.fail(new SieveConnectionError(`${command}: no answer in ${this.timeoutMs} ms`)), this.timeoutMs);
      this.drain();
    }).then((response) => {
      if (response.status !== 'OK') throw new SieveCommandError(command, response);
      return response;
    });
  }

  private attach(socket: net.Socket): void {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => this.fail(new SieveConnectionError(error.message)));
    socket.on('close', () => this.fail(new SieveConnectionError('The server closed the connection')));
  }

  private receive(chunk: Buffer): void {
    let lines: WireLine[];
    try {
      lines = this.reader.push(chunk);
    } catch (error) {
      this.fail(new SieveConnectionError(error instanceof WireProtocolError ? error.message : String(error)));
      this.socket.destroy();
      return;
    }
    this.backlog.push(...lines);
    this.drain();
  }

  /** Hands received lines to the waiting command; lines before anyone waits (a fast server) wait in the backlog. */
  private drain(): void {
    while (this.pending && this.backlog.length > 0) {
      const pending = this.pending;
      const line = this.backlog.shift()!;
      const status = statusOf(line);
      if (!status) {
        pending.lines.push(line);
        continue;
      }
      clearTimeout(this.timer);
      this.pending = undefined;
      pending.resolve({ ...status, data: pending.lines });
    }
  }

  private fail(error: Error): void {
    this.closedError ??= error;
    clearTimeout(this.timer);
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }

  /** Wraps the plain socket in TLS (after STARTTLS's OK); later bytes are the TLS stream's. */
  private async upgrade(params: ConnectParams): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('close');
    plain.removeAllListeners('error');
    this.reader = new WireReader();
    const secure = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const socket = tls.connect({ socket: plain, servername: net.isIP(params.host) ? undefined : params.host, ...params.tlsOptions }, () => resolve(socket));
      socket.on('error', (error) => reject(new SieveConnectionError(`TLS: ${error.message}`)));
    });
    this.socket = secure;
    this.secure = true;
    this.attach(secure);
  }
}

function literal(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(`{${bytes.length}+}\r\n`, 'latin1'), bytes]);
}

function openSocket(params: ConnectParams, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      socket.destroy();
      reject(new SieveConnectionError(`${params.host}:${params.port}: ${error.message}`));
    };
    const socket: net.Socket =
      params.security === 'tls'
        ? tls.connect({ host: params.host, port: params.port, servername: net.isIP(params.host) ? undefined : params.host, ...params.tlsOptions }, () => done())
        : net.connect({ host: params.host, port: params.port }, () => done());
    const timer = setTimeout(() => onError(new Error(`no connection in ${timeoutMs} ms`)), timeoutMs);
    const done = () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    };
    socket.once('error', onError);
  });
}

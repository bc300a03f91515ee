import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ImapCheckError } from '../../../../src-server/auth/imap-check';
import { LoginService } from '../../../../src-server/auth/login-service';
import type { LoginThrottle } from '../../../../src-server/auth/rate-limit';
import { loadConfig } from '../../../../src-server/config';
import { closeContext, createContext, type GatewayContext } from '../../../../src-server/context';
import { createApp } from '../../../../src-server/http/app';
import type { RouteModule } from '../../../../src-server/http/routes';

/** Accounts the fake IMAP check knows, by address: their one right password. */
export const PASSWORDS: Record<string, string> = { 'alice@tern.test': 'Alice-pass-1!', 'bob@tern.test': 'Bob-pass-2!' };

export interface TestApp {
  readonly app: FastifyInstance;
  readonly ctx: GatewayContext;
  /** The operator log's lines, parsed (only when built with `log: true`). */
  readonly logLines: Record<string, unknown>[];
  /** The same, as written. */
  logText(): string;
  close(): Promise<void>;
}

/**
 * The whole gateway app (every route, the error handler, the log) over an in-memory store.
 * Logins are checked by the real LoginService and throttle; only the IMAP check is a fake
 * that knows PASSWORDS, so no mail server is needed to see what the HTTP layer does.
 */
export async function startTestApp(options: { env?: Record<string, string>; log?: boolean; throttle?: LoginThrottle; routes?: readonly RouteModule[] } = {}): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'tern-http-'));
  await mkdir(join(dir, 'public', 'build'), { recursive: true });
  await writeFile(join(dir, 'public', 'build', 'index.html'), '<!doctype html><title>T</title>');
  const config = loadConfig({ TERN_PUBLIC_DIR: join(dir, 'public'), TERN_DATA_DIR: join(dir, 'data'), TERN_DATABASE_FILE: ':memory:', ...options.env });
  const base = await createContext(config);
  const imap = { host: '127.0.0.1', port: 1, security: 'none' as const };
  const login = new LoginService({
    accounts: base.accounts,
    sessions: base.sessions,
    throttle: options.throttle ?? base.shared.throttle, // in memory, or in Redis with TERN_REDIS_URL
    discover: async () => ({ imap, smtp: imap, provider: 'tern.test', source: 'config' }),
    checkImap: async ({ user, password }) => {
      if (PASSWORDS[user] === password) return { folderSeparator: '/' };
      throw new ImapCheckError('auth', 'AUTHENTICATIONFAILED');
    },
    minFailureMs: 0,
  });
  const ctx: GatewayContext = { ...base, login };
  let text = '';
  const app = await createApp(ctx, {
    apiLog: () => undefined,
    routes: options.routes,
    ...(options.log ? { log: { level: 'info' as const, stream: { write: (line: string) => (text += line) } } } : {}),
  });
  return {
    app,
    ctx,
    get logLines() {
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText: () => text,
    close: async () => {
      await app.close();
      await closeContext(base);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh session of one of PASSWORDS' accounts (each sign-in is another device): its id and Bearer header. */
export async function signInTestApp(gateway: TestApp, email: keyof typeof PASSWORDS & string): Promise<{ accountId: number; headers: { authorization: string } }> {
  const login = await gateway.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: PASSWORDS[email] } });
  if (login.statusCode !== 200) throw new Error(`sign-in of ${email}: ${login.statusCode} ${login.body}`);
  const headers = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
  const accountId = (await gateway.ctx.sessions.verify(headers.authorization.slice(7))).accountId;
  return { accountId, headers };
}

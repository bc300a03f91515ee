import { setTimeout as sleep } from 'node:timers/promises';
import { checkAddressRequestSchema, loginRequestSchema, type CheckAddressResponse, type LoginChallengeReply, type LoginResponse } from '../../shared/api/account';
import { TernError } from '../../shared/errors';
import type { AccountStore, ServerSettings } from '../accounts/account-store';
import type { SessionStore } from '../accounts/session-store';
import { GUESS_ERRORS, type ChallengeOutcome, type LoginAnswer, type LoginChallenges } from '../security/login-challenges';
import type { DiscoveredServers } from './discovery';
import { ImapCheckError, type ImapCheckResult } from './imap-check';
import type { LoginThrottle } from './rate-limit';

/**
 * A refused login never answers sooner than this after the request arrived. Servers reject
 * an unknown user and a wrong password at slightly different speeds; a common floor hides
 * the difference (and slows guessing a little more).
 */
export const MIN_FAILURE_MS = 300;

export interface LoginServiceDeps {
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly throttle: LoginThrottle;
  /** The steps after the password (two-factor …); none asked when absent. */
  readonly challenges?: Pick<LoginChallenges, 'check' | 'succeeded' | 'countryOf'>;
  readonly discover: (email: string) => Promise<DiscoveredServers>;
  readonly checkImap: (params: { server: ServerSettings; user: string; password: string }) => Promise<ImapCheckResult>;
  /**
   * Runs after a successful login, before the reply (e.g. to start the account's mirror).
   * Awaited; a throw is reported but does not undo the login: the account and token stand.
   */
  readonly onLogin?: (accountId: number) => void | Promise<void>;
  readonly reportError?: (message: string, error: unknown) => void;
  readonly minFailureMs?: number;
  readonly now?: () => number;
}

export interface LoginParams {
  readonly email: unknown;
  readonly password: unknown;
  /** The answers to a challenge step, when the attempt carries them. */
  readonly answer?: LoginAnswer;
  /** The client's User-Agent, kept with the session for the Sessions page. */
  readonly userAgent?: string | undefined;
  /** The client's address, for the per-IP limit. */
  readonly ip: string;
  /** The API base the client should use for this account, e.g. `https://mail.example.com/api`. */
  readonly baseUrl: string;
}

/** "john.smith" → "John Smith": a presentable name until the user sets one. */
export function nameFromAddress(email: string): string {
  const local = email.slice(0, email.lastIndexOf('@')).split('+')[0] ?? '';
  const words = local.split(/[._-]+/).filter(Boolean);
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ') || email;
}

/** What the client is told about a failed discovery or IMAP check; undefined for a bug of ours. */
function loginFailure(error: unknown, servers: DiscoveredServers | undefined): TernError | undefined {
  if (error instanceof TernError) return error;
  if (!(error instanceof ImapCheckError) || !servers) return undefined;
  if (error.kind === 'auth') return new TernError('AuthenticationError');
  // A host an operator configured that does not even answer is a wrong setting, not an outage.
  if (error.kind === 'unreachable' && servers.source === 'config') return new TernError('NoSuchImapProvider');
  return new TernError('ImapConnectionFailed');
}

/**
 * Login (issue "Gateway" 1): validate, rate limit, find the servers, prove the password
 * against IMAP, then store the account (password sealed) and open a session.
 */
export class LoginService {
  constructor(private readonly deps: LoginServiceDeps) {}

  async login(params: LoginParams): Promise<LoginResponse | LoginChallengeReply> {
    const now = this.deps.now ?? Date.now;
    const started = now();
    const { email, password } = loginRequestSchema.parse({ email: params.email, password: params.password });
    const attempt = await this.deps.throttle.begin({ email, ip: params.ip });
    let servers: DiscoveredServers | undefined;
    let checked: ImapCheckResult;
    try {
      servers = await this.deps.discover(email);
      checked = await this.deps.checkImap({ server: servers.imap, user: email, password });
    } catch (error) {
      const failure = loginFailure(error, servers);
      if (!failure) this.report('login failed unexpectedly', error);
      const aboutPassword = failure?.name === 'AuthenticationError';
      await this.deps.throttle.failed(attempt, { countsForAddress: aboutPassword });
      if (aboutPassword) await sleep(Math.max(0, started + (this.deps.minFailureMs ?? MIN_FAILURE_MS) - now()));
      throw failure ?? new TernError('InternalServerError');
    }
    const known = await this.deps.accounts.byEmail(email);
    let passed: ChallengeOutcome = { kind: 'pass' };
    if (known && this.deps.challenges) {
      try {
        passed = await this.deps.challenges.check({ accountId: known.id, answer: params.answer ?? {}, ip: params.ip });
      } catch (error) {
        // A wrong or reused code is a guess like a wrong password: it costs the address too.
        const guess = error instanceof TernError && GUESS_ERRORS.has(error.name);
        if (!(error instanceof TernError)) this.report('login challenge failed unexpectedly', error);
        await this.deps.throttle.failed(attempt, { countsForAddress: guess });
        if (guess) await sleep(Math.max(0, started + (this.deps.minFailureMs ?? MIN_FAILURE_MS) - now()));
        throw error instanceof TernError ? error : new TernError('InternalServerError');
      }
      // Asked for another step: not a success (that would clear the pair's failed codes and let
      // guessing go on forever), not a wrong guess either: only the IP's count remains.
      if (passed.kind === 'challenge') {
        await this.deps.throttle.failed(attempt, { countsForAddress: false });
        return passed.reply;
      }
    }
    await this.deps.throttle.succeeded(attempt);

    const account = await this.deps.accounts.save({
      email,
      name: known?.name || nameFromAddress(email),
      imap: servers.imap,
      smtp: servers.smtp,
      password,
    });
    const token = await this.deps.sessions.create(account.id, { userAgent: params.userAgent, ip: params.ip, country: this.deps.challenges?.countryOf(params.ip) ?? null });
    await this.deps.challenges?.succeeded({ accountId: account.id, ip: params.ip });
    try {
      await this.deps.onLogin?.(account.id);
    } catch (error) {
      this.report(`onLogin hook failed for account ${account.id}`, error);
    }
    return {
      mailId: String(account.id),
      email: account.email,
      name: account.name,
      token,
      latestTxnId: account.latestTxnId,
      baseUrl: params.baseUrl,
      provider: servers.provider,
      aliases: [],
      mailProperties: { folderSeparator: checked.folderSeparator },
      ...(passed.kind === 'pass' && passed.recoveryCodesLeft !== undefined ? { recoveryCodesLeft: passed.recoveryCodesLeft } : {}),
      ...(passed.kind === 'pass' && passed.twoFactorReset ? { twoFactorReset: true } : {}),
    };
  }

  /**
   * The email step's question: can this address's domain be served? Discovery only — no
   * password, no IMAP login, nothing stored; the login that follows finds the answer
   * remembered (rememberDiscoveries). A refusal is discovery's catalogue error.
   */
  async checkAddress(params: { email: unknown; ip: string }): Promise<CheckAddressResponse> {
    const { email } = checkAddressRequestSchema.parse({ email: params.email });
    await this.deps.throttle.lookup({ ip: params.ip });
    try {
      return { provider: (await this.deps.discover(email)).provider };
    } catch (error) {
      if (error instanceof TernError) throw error;
      this.report('address check failed unexpectedly', error);
      throw new TernError('InternalServerError');
    }
  }

  private report(message: string, error: unknown): void {
    (this.deps.reportError ?? ((text, err) => console.error(text, err instanceof Error ? err.message : err)))(message, error);
  }

  /** The account a live session belongs to (GET /api/session); InvalidToken if it is gone. */
  async sessionAccount(accountId: number): Promise<{ mailId: string; email: string }> {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw new TernError('InvalidToken');
    return { mailId: String(account.id), email: account.email };
  }
}

/**
 * The two gateway calls of the account lifecycle: POST /api/login and POST /api/logout.
 * Tabs never fetch (DESIGN §1); the engine does, with an injected fetch.
 */
import * as z from 'zod';
import { checkAddressRequestSchema, checkAddressResponseSchema, loginChallengeReplySchema, loginRequestSchema, loginResponseSchema, type LoginChallengeReply, type LoginResponse } from '../../shared/api/account';
import { TernError } from '../../shared/errors';
import type { LoginChallengeStep } from '../../shared/login-steps';
import type { AddAccountParams } from '../../shared/worker-api';

/** Credentials as a tab may send them: parsed, never trusted (DESIGN §5). */
export const addAccountParamsSchema = loginRequestSchema;

export type LoginOutcome =
  | { readonly kind: 'logged-in'; readonly login: LoginResponse }
  | ({ readonly kind: 'challenge'; readonly step: LoginChallengeStep } & Pick<LoginChallengeReply, 'sentTo' | 'canUseEmail'>);

export interface GatewayLogin {
  /** Logs in; a catalogue error (AuthenticationError, TooManyRequests …) when the gateway refuses. */
  login(params: AddAccountParams): Promise<LoginOutcome>;
  /** POST /api/login/check: whether the address's domain can be served; the discovery error when not. */
  checkAddress(email: string): Promise<{ provider: string }>;
  /** Ends the account's gateway session; best effort, never throws. */
  logout(params: { readonly api: string; readonly token: string }): Promise<void>;
}

export interface GatewayLoginDeps {
  readonly fetch: typeof fetch;
  /** The gateway's API base for logins, e.g. `https://mail.example.com/api`. */
  readonly apiBase: string;
}


export function createGatewayLogin({ fetch, apiBase }: GatewayLoginDeps): GatewayLogin {
  return {
    async login(params) {
      const credentials = addAccountParamsSchema.safeParse(params);
      if (!credentials.success) throw new TernError('InvalidRequestData', { detail: { issues: credentials.error.issues.map((issue) => issue.path.join('.')) } });
      let response: Response;
      try {
        response = await fetch(`${apiBase}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(credentials.data),
        });
      } catch {
        // No catalogue name means "offline"; the detail lets the UI say so.
        throw new TernError('OperationFailed', { detail: { network: true } });
      }
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw TernError.from(body ?? { error: response.status === 429 ? 'TooManyRequests' : 'InternalServerError' });
      const challenge = loginChallengeReplySchema.safeParse(body);
      if (challenge.success) {
        const { challenge: step, sentTo, canUseEmail } = challenge.data;
        return { kind: 'challenge', step, ...(sentTo ? { sentTo } : {}), ...(canUseEmail ? { canUseEmail } : {}) };
      }
      const login = loginResponseSchema.safeParse(body);
      if (!login.success) throw new TernError('InternalServerError', { detail: { reason: 'unexpected login reply' } });
      return { kind: 'logged-in', login: login.data };
    },
    async checkAddress(email) {
      const parsed = checkAddressRequestSchema.safeParse({ email });
      if (!parsed.success) throw new TernError('InvalidMail');
      let response: Response;
      try {
        response = await fetch(`${apiBase}/login/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(parsed.data) });
      } catch {
        throw new TernError('OperationFailed', { detail: { network: true } });
      }
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw TernError.from(body ?? { error: response.status === 429 ? 'TooManyRequests' : 'InternalServerError' });
      const answer = checkAddressResponseSchema.safeParse(body);
      if (!answer.success) throw new TernError('InternalServerError', { detail: { reason: 'unexpected check reply' } });
      return answer.data;
    },
    async logout({ api, token }) {
      await fetch(`${api}/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    },
  };
}

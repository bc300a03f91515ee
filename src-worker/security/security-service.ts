/**
 * The engine's SecurityService (shared/worker-api.ts): two-factor and sessions of each account,
 * straight through to the gateway. Nothing is cached or queued: a second factor is checked by
 * the gateway while the person waits, and a refusal must reach them at once.
 */
import * as z from 'zod';
import { emailSchema } from '../../shared/api/account';
import { typedCodeSchema, type Enrolment, type RecoveryCodes, type SecurityStatus, type SessionInfo } from '../../shared/api/security';
import { TernError } from '../../shared/errors';
import type { SecurityService } from '../../shared/worker-api';
import type { SecurityGateway } from './security-gateway';

const accountSchema = z.object({ accountId: z.string().min(1) });
const codeSchema = accountSchema.extend({ code: typedCodeSchema });
const alternateSchema = accountSchema.extend({ email: emailSchema, twoFactorCode: typedCodeSchema.optional() });
const removeAlternateSchema = accountSchema.extend({ twoFactorCode: typedCodeSchema.optional() });
const sessionSchema = accountSchema.extend({ sessionId: z.string().regex(/^[0-9a-f]{24}$/) });

/** Params from a tab are parsed, never trusted (DESIGN §5). */
function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TernError('InvalidParameter', { detail: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) });
  return parsed.data;
}

export class EngineSecurity implements SecurityService {
  constructor(private readonly deps: { readonly gateway: (accountId: string) => Promise<SecurityGateway> }) {}

  private async gateway(params: unknown): Promise<SecurityGateway> {
    return this.deps.gateway(parse(accountSchema, params).accountId);
  }

  async status(params: { readonly accountId: string }): Promise<SecurityStatus> {
    return (await this.gateway(params)).status();
  }

  async enrolTwoFactor(params: { readonly accountId: string }): Promise<Enrolment> {
    return (await this.gateway(params)).enrol();
  }

  async confirmTwoFactor(params: { readonly accountId: string; readonly code: string }): Promise<RecoveryCodes> {
    const { accountId, code } = parse(codeSchema, params);
    return (await this.deps.gateway(accountId)).confirm(code);
  }

  async disableTwoFactor(params: { readonly accountId: string; readonly code: string }): Promise<void> {
    const { accountId, code } = parse(codeSchema, params);
    await (await this.deps.gateway(accountId)).disable(code);
  }

  async regenerateRecoveryCodes(params: { readonly accountId: string; readonly code: string }): Promise<RecoveryCodes> {
    const { accountId, code } = parse(codeSchema, params);
    return (await this.deps.gateway(accountId)).regenerate(code);
  }

  async alternateEmail(params: { readonly accountId: string; readonly email: string; readonly twoFactorCode?: string }): Promise<void> {
    const { accountId, email, twoFactorCode } = parse(alternateSchema, params);
    await (await this.deps.gateway(accountId)).setAlternate(email, twoFactorCode);
  }

  async confirmAlternateEmail(params: { readonly accountId: string; readonly code: string }): Promise<void> {
    const { accountId, code } = parse(codeSchema, params);
    await (await this.deps.gateway(accountId)).confirmAlternate(code);
  }

  async removeAlternateEmail(params: { readonly accountId: string; readonly twoFactorCode?: string }): Promise<void> {
    const { accountId, twoFactorCode } = parse(removeAlternateSchema, params);
    await (await this.deps.gateway(accountId)).removeAlternate(twoFactorCode);
  }

  async sessions(params: { readonly accountId: string }): Promise<readonly SessionInfo[]> {
    return (await this.gateway(params)).sessions();
  }

  async endSession(params: { readonly accountId: string; readonly sessionId: string }): Promise<void> {
    const { accountId, sessionId } = parse(sessionSchema, params);
    await (await this.deps.gateway(accountId)).endSession(sessionId);
  }

  async endOtherSessions(params: { readonly accountId: string }): Promise<number> {
    return (await this.gateway(params)).endOthers();
  }
}

/** The gateway's security routes (shared/api/security.ts), for one account. */
import * as z from 'zod';
import { enrolmentSchema, recoveryCodesSchema, securityStatusSchema, sessionListSchema, type Enrolment, type RecoveryCodes, type SecurityStatus, type SessionInfo } from '../../shared/api/security';
import type { GatewayClient } from '../api/gateway-client';

export interface SecurityGateway {
  status(): Promise<SecurityStatus>;
  enrol(): Promise<Enrolment>;
  confirm(code: string): Promise<RecoveryCodes>;
  disable(code: string): Promise<void>;
  regenerate(code: string): Promise<RecoveryCodes>;
  setAlternate(email: string, twoFactorCode: string | undefined): Promise<void>;
  confirmAlternate(code: string): Promise<void>;
  removeAlternate(twoFactorCode: string | undefined): Promise<void>;
  sessions(): Promise<readonly SessionInfo[]>;
  endSession(id: string): Promise<void>;
  endOthers(): Promise<number>;
}

const nothing = z.unknown();

/** Code checks are never repeated blindly: a repeat of a code that went through is TwoFactorCodeUsed. */
export function createSecurityGateway(client: GatewayClient): SecurityGateway {
  const post = <T>(path: string, schema: z.ZodType<T>, json: unknown = {}) => client.json({ type: 'security', method: 'POST', path, json, retry: false }, schema);
  return {
    status: () => client.json({ type: 'security', path: '/security' }, securityStatusSchema),
    enrol: () => post('/security/two-factor/enrol', enrolmentSchema),
    confirm: (code) => post('/security/two-factor/confirm', recoveryCodesSchema, { code }),
    disable: async (code) => void (await post('/security/two-factor/disable', nothing, { code })),
    regenerate: (code) => post('/security/two-factor/recovery-codes', recoveryCodesSchema, { code }),
    setAlternate: async (email, twoFactorCode) =>
      void (await client.json({ type: 'security', method: 'PUT', path: '/security/alternate-email', json: { email, ...(twoFactorCode ? { twoFactorCode } : {}) }, retry: false }, nothing)),
    confirmAlternate: async (code) => void (await post('/security/alternate-email/confirm', nothing, { code })),
    removeAlternate: async (twoFactorCode) => void (await post('/security/alternate-email/remove', nothing, twoFactorCode ? { twoFactorCode } : {})),
    sessions: async () => (await client.json({ type: 'security', path: '/security/sessions' }, sessionListSchema)).sessions,
    endSession: async (id) => void (await client.json({ type: 'security', method: 'DELETE', path: `/security/sessions/${encodeURIComponent(id)}` }, nothing)),
    endOthers: async () => (await post('/security/sessions/end-others', z.object({ ended: z.number() }))).ended,
  };
}

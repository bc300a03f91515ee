/**
 * Account security (Settings → Security and Sessions, issue 19): each an engine call through
 * to the gateway; refusals become the catalogue's TernError for the page to show in place.
 */
import { TernError } from '../../../shared/errors';
import type { SecurityService } from '../../../shared/worker-api';
import type { UiEngine } from '../engine-port';

export interface SecurityActions {
  /** The engine's SecurityService, each refusal a TernError (ServiceNotFound in an engine without it). */
  readonly security: SecurityService;
}

export function createSecurityActions({ engine }: { engine: UiEngine }): SecurityActions {
  const service = (): SecurityService => {
    if (!engine.security) throw new TernError('ServiceNotFound');
    return engine.security;
  };
  const call =
    <P, R>(pick: (security: SecurityService) => (params: P) => Promise<R>) =>
    async (params: P): Promise<R> => {
      try {
        const security = service();
        return await pick(security).call(security, params);
      } catch (error) {
        throw TernError.from(error);
      }
    };
  return {
    security: {
      status: call((s) => s.status),
      enrolTwoFactor: call((s) => s.enrolTwoFactor),
      confirmTwoFactor: call((s) => s.confirmTwoFactor),
      disableTwoFactor: call((s) => s.disableTwoFactor),
      regenerateRecoveryCodes: call((s) => s.regenerateRecoveryCodes),
      alternateEmail: call((s) => s.alternateEmail),
      confirmAlternateEmail: call((s) => s.confirmAlternateEmail),
      removeAlternateEmail: call((s) => s.removeAlternateEmail),
      sessions: call((s) => s.sessions),
      endSession: call((s) => s.endSession),
      endOtherSessions: call((s) => s.endOtherSessions),
    },
  };
}

/**
 * Account security (Settings → Security and Sessions, issue 19): each an engine call through
 * to the gateway; refusals become the catalogue's TernError for the page to show in place.
 */
import type { SecurityService } from '../../../shared/worker-api';
import type { UiEngine } from '../engine-port';
import { asTernError, engineService } from './engine-call';

export interface SecurityActions {
  /** The engine's SecurityService, each refusal a TernError (ServiceNotFound in an engine without it). */
  readonly security: SecurityService;
}

export function createSecurityActions({ engine }: { engine: UiEngine }): SecurityActions {
  const service = (): SecurityService => engineService(engine, 'security');
  // Each method is called on the service itself: `fn.call(…)` on a comlink remote would be sent to the worker as a property named "call".
  const call =
    <P, R>(invoke: (security: SecurityService, params: P) => Promise<R>) =>
    (params: P): Promise<R> =>
      asTernError(() => invoke(service(), params));
  return {
    security: {
      status: call((s, p: Parameters<SecurityService['status']>[0]) => s.status(p)),
      enrolTwoFactor: call((s, p: Parameters<SecurityService['enrolTwoFactor']>[0]) => s.enrolTwoFactor(p)),
      confirmTwoFactor: call((s, p: Parameters<SecurityService['confirmTwoFactor']>[0]) => s.confirmTwoFactor(p)),
      disableTwoFactor: call((s, p: Parameters<SecurityService['disableTwoFactor']>[0]) => s.disableTwoFactor(p)),
      regenerateRecoveryCodes: call((s, p: Parameters<SecurityService['regenerateRecoveryCodes']>[0]) => s.regenerateRecoveryCodes(p)),
      alternateEmail: call((s, p: Parameters<SecurityService['alternateEmail']>[0]) => s.alternateEmail(p)),
      confirmAlternateEmail: call((s, p: Parameters<SecurityService['confirmAlternateEmail']>[0]) => s.confirmAlternateEmail(p)),
      removeAlternateEmail: call((s, p: Parameters<SecurityService['removeAlternateEmail']>[0]) => s.removeAlternateEmail(p)),
      sessions: call((s, p: Parameters<SecurityService['sessions']>[0]) => s.sessions(p)),
      endSession: call((s, p: Parameters<SecurityService['endSession']>[0]) => s.endSession(p)),
      endOtherSessions: call((s, p: Parameters<SecurityService['endOtherSessions']>[0]) => s.endOtherSessions(p)),
    },
  };
}

// The security actions over a real comlink boundary (a MessageChannel, as the worker's is): each
// call reaches the engine's method with its params, and a refusal comes back as the catalogue's
// TernError. (Calling a remote's method with `.call(…)` sends "call" to the worker as a property name.)
import { expose, proxy, wrap, type Remote } from 'comlink';
import { afterEach, expect, test } from 'vitest';
import { TernError } from '../../../../../shared/errors';
import type { SecurityService, WorkerApi } from '../../../../../shared/worker-api';
import { createSecurityActions } from '../../../../../src-ui/state/mail-actions/security-actions';
import type { UiEngine } from '../../../../../src-ui/state/engine-port';

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((channel) => (channel.port1.close(), channel.port2.close())));

test('status, a refused code and the sessions cross the boundary intact', async () => {
  const calls: unknown[] = [];
  // A class, as the engine's EngineSecurity is: its methods need their own `this`.
  class FakeSecurity implements Partial<SecurityService> {
    private readonly calls = calls;
    async status(params: { readonly accountId: string }) {
      this.calls.push(params);
      return { twoFactor: { enabled: false, recoveryCodesLeft: 0 }, alternateEmail: null, systemMail: true };
    }
    async confirmTwoFactor(): Promise<never> {
      throw new TernError('TwoFactorCodeInvalid');
    }
    async endOtherSessions() {
      return this.calls.length + 1;
    }
  }
  const service = new FakeSecurity();
  const channel = new MessageChannel();
  channels.push(channel);
  expose({ security: proxy(service) }, channel.port2);
  const remote = wrap<Pick<WorkerApi, 'security'>>(channel.port1) as Remote<Pick<WorkerApi, 'security'>>;
  const { security } = createSecurityActions({ engine: { security: remote.security } as unknown as UiEngine });

  expect(await security.status({ accountId: '7' })).toMatchObject({ systemMail: true });
  expect(calls).toEqual([{ accountId: '7' }]);
  const refused = await security.confirmTwoFactor({ accountId: '7', code: '000000' }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(TernError);
  expect((refused as TernError).name).toBe('TwoFactorCodeInvalid');
  expect(await security.endOtherSessions({ accountId: '7' })).toBe(2);
});

test('an engine without the service refuses with ServiceNotFound', async () => {
  const { security } = createSecurityActions({ engine: {} as UiEngine });
  await expect(security.sessions({ accountId: '1' })).rejects.toMatchObject({ name: 'ServiceNotFound' });
});

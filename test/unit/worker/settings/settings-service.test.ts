/**
 * The engine's settings service: preferences and plan loaded from the gateway, pushed to
 * watching tabs, changed at once here and queued for the gateway (offline too), refused
 * locally without the plan's feature, taken back when the gateway refuses.
 */
import { describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import type { AccountSettings } from '../../../../shared/worker-api';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { MemoryDatabases } from '../../../../src-worker/db/memory-store';
import { EngineSettings } from '../../../../src-worker/settings/settings-service';
import { manualClock, waitFor } from '../mail-test-kit';
import { FakeSettingsGateway } from './fake-settings-gateway';

function setup(accountIds = ['7']) {
  const databases = new MemoryDatabases();
  const gateways = new Map(accountIds.map((id) => [id, new FakeSettingsGateway()]));
  const onlineListeners = new Set<(online: boolean) => void>();
  const net = { online: true };
  const clock = manualClock();
  const make = () =>
    new EngineSettings({
      accountIds: async () => accountIds,
      open: (accountId) => databases.open(accountId, MAIL_SCHEMA),
      gateway: async (accountId) => gateways.get(accountId)!,
      online: {
        isOnline: async () => net.online,
        subscribe: (listener) => {
          onlineListeners.add(listener);
          return () => onlineListeners.delete(listener);
        },
      },
      clock,
      random: () => 0.5,
    });
  const goOnline = () => {
    net.online = true;
    for (const gateway of gateways.values()) gateway.offline = false;
    for (const listener of [...onlineListeners]) listener(true);
  };
  const goOffline = () => {
    net.online = false;
    for (const gateway of gateways.values()) gateway.offline = true;
  };
  return { settings: make(), make, gateways, gateway: gateways.get(accountIds[0]!)!, clock, goOnline, goOffline };
}

function watcher(settings: EngineSettings) {
  const seen: (readonly AccountSettings[])[] = [];
  void settings.watch((list) => seen.push(list));
  return seen;
}

describe('settings service', () => {
  test('before anything is loaded: defaults and the default plan with every feature', async () => {
    const { settings } = setup();
    const [account] = await settings.list();
    expect(account).toMatchObject({ accountId: '7', revision: 0, unsynced: false, plan: 'paid', preferences: { theme: 'system', spellCheck: true } });
    expect(account!.features).toContain('spellChecker');
  });

  test('load takes the gateway preferences and plan, and every watching tab hears', async () => {
    const { settings, gateway } = setup();
    gateway.doc = { revision: 4, values: { ...gateway.doc.values, theme: 'dark' }, updatedAt: 1 };
    gateway.planName = 'free';
    const seen = watcher(settings);
    await settings.load('7');
    const last = await waitFor(() => seen.find((list) => list[0]?.revision === 4), 'the loaded settings pushed');
    expect(last[0]).toMatchObject({ plan: 'free', features: [], preferences: { theme: 'dark' } });
  });

  test('primary account first', async () => {
    const { settings } = setup(['12', '3']);
    expect((await settings.list()).map((account) => account.accountId)).toEqual(['3', '12']);
  });

  test('update: applied at once, confirmed by the gateway, pushed', async () => {
    const { settings, gateway } = setup();
    const seen = watcher(settings);
    const result = await settings.update({ accountId: '7', values: { theme: 'dark', viewMode: 'list' } });
    expect(result).toMatchObject({ revision: 1, unsynced: false, preferences: { theme: 'dark', viewMode: 'list' } });
    expect(gateway.patches).toEqual([{ theme: 'dark', viewMode: 'list' }]);
    await waitFor(() => seen.some((list) => list[0]?.preferences.theme === 'dark' && !list[0].unsynced), 'the confirmed change pushed');
  });

  test('offline: applied here (unsynced), kept over an engine restart, sent when the gateway is back', async () => {
    const { settings, make, gateway, goOffline, goOnline } = setup();
    goOffline();
    const result = await settings.update({ accountId: '7', values: { theme: 'light' } });
    expect(result).toMatchObject({ unsynced: true, revision: 0, preferences: { theme: 'light' } });
    expect(gateway.doc.values.theme).toBe('system');
    settings.stop();
    // A new engine (worker restarted) still has the change, and still owes it.
    const again = make();
    expect((await again.list())[0]).toMatchObject({ unsynced: true, preferences: { theme: 'light' } });
    goOnline();
    await again.load('7');
    expect(gateway.doc.values.theme).toBe('light');
    expect((await again.list())[0]).toMatchObject({ unsynced: false, revision: 1, preferences: { theme: 'light' } });
  });

  test('offline, then the network comes back: the queued change goes out by itself', async () => {
    const { settings, gateway, goOffline, goOnline } = setup();
    goOffline();
    await settings.update({ accountId: '7', values: { viewMode: 'split' } });
    goOnline();
    await waitFor(() => gateway.doc.values.viewMode === 'split', 'the change sent on reconnect');
    await waitFor(async () => !(await settings.list())[0]!.unsynced, 'the change confirmed');
  });

  test('a server error is retried on the backoff', async () => {
    const { settings, gateway, clock } = setup();
    const patch = gateway.patchPreferences.bind(gateway);
    let failures = 1;
    gateway.patchPreferences = async (values) => {
      if (failures-- > 0) throw new TernError('InternalServerError');
      return patch(values);
    };
    const result = await settings.update({ accountId: '7', values: { theme: 'dark' } });
    expect(result.unsynced).toBe(true);
    await waitFor(() => clock.pending().length > 0, 'a retry planned');
    clock.advance(clock.pending()[0]!);
    await waitFor(() => gateway.doc.values.theme === 'dark', 'the retry sent');
  });

  test('a preference whose feature the cached plan lacks is refused here, nothing changed or sent', async () => {
    const { settings, gateway } = setup();
    gateway.planName = 'free';
    await settings.load('7');
    await expect(settings.update({ accountId: '7', values: { spellCheck: false } })).rejects.toMatchObject({ name: 'FeatureNotInPlan', detail: { feature: 'spellChecker' } });
    expect(gateway.patches).toEqual([]);
    expect((await settings.list())[0]).toMatchObject({ unsynced: false, preferences: { spellCheck: true } });
  });

  test('a 402 from the gateway (plan changed since the cache) takes the change back and reports it', async () => {
    const { settings, gateway } = setup();
    await settings.load('7'); // paid as far as this device knows
    gateway.planName = 'free';
    const seen = watcher(settings);
    await expect(settings.update({ accountId: '7', values: { spellCheck: false, theme: 'dark' } })).rejects.toMatchObject({ name: 'FeatureNotInPlan' });
    expect((await settings.list())[0]).toMatchObject({ unsynced: false, preferences: { spellCheck: true, theme: 'system' } });
    // Tabs saw it applied, then taken back.
    await waitFor(() => seen.some((list) => list[0]?.preferences.spellCheck === false), 'the optimistic push');
    await waitFor(() => seen.at(-1)?.[0]?.preferences.spellCheck === true, 'the revert pushed');
  });

  test('a bad value or an unknown account is refused', async () => {
    const { settings } = setup();
    await expect(settings.update({ accountId: '7', values: { theme: 'pink' } as never })).rejects.toMatchObject({ name: 'InvalidRequestData' });
    await expect(settings.update({ accountId: '7', values: {} })).rejects.toMatchObject({ name: 'InvalidRequestData' });
    await expect(settings.update({ accountId: '8', values: { theme: 'dark' } })).rejects.toMatchObject({ name: 'AccountNotFound' });
  });

  test('a change made while an earlier one is in flight stays pending until it is sent', async () => {
    const { settings, gateway } = setup();
    const first = settings.update({ accountId: '7', values: { theme: 'dark' } });
    const second = settings.update({ accountId: '7', values: { theme: 'light' } });
    await Promise.all([first, second]);
    expect(gateway.doc.values.theme).toBe('light');
    expect((await settings.list())[0]).toMatchObject({ unsynced: false, preferences: { theme: 'light' } });
  });

  test('an older document than the cached one does not win (a slow GET after a delta)', async () => {
    const { settings, gateway } = setup();
    await settings.update({ accountId: '7', values: { theme: 'dark' } }); // revision 1
    gateway.doc = { revision: 0, values: { ...gateway.doc.values, theme: 'system' }, updatedAt: 0 };
    await settings.load('7');
    expect((await settings.list())[0]).toMatchObject({ revision: 1, preferences: { theme: 'dark' } });
  });

  test('identities: loaded with the rest, saved on the gateway and pushed to tabs; a bad address or an oversized signature is refused here, the gateway never asked', async () => {
    const { settings, gateway } = setup();
    const seen = watcher(settings);
    await settings.load('7');
    expect((await settings.list())[0]!.identities.map((identity) => identity.id)).toEqual(['own']);

    const saved = await settings.saveIdentity({ accountId: '7', identityId: 'work', identity: { name: 'Ann at Work', email: 'Ann.Work@Example.com', isDefault: true } });
    expect(saved.identities.map(({ id, email, isDefault }) => [id, email, isDefault])).toEqual([['own', 'me@tern.test', false], ['work', 'ann.work@example.com', true]]);
    await waitFor(() => seen.at(-1)?.[0]?.identities.length === 2 || undefined, 'the tabs to hear of the new identity');

    const revision = gateway.identitiesDoc.revision;
    const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error as TernError).name);
    expect(await refusal(settings.saveIdentity({ accountId: '7', identityId: 'bad', identity: { email: 'not an address' } }))).toBe('InvalidParameter');
    expect(await refusal(settings.saveIdentity({ accountId: '7', identityId: 'work', identity: { email: 'ann.work@example.com', signatureHtml: 'x'.repeat(10_001) } }))).toBe('SignatureTooLarge');
    expect(gateway.identitiesDoc.revision).toBe(revision);

    // Without the plan's alias feature the gateway refuses, and the cache keeps what it had.
    gateway.planName = 'free';
    expect(await refusal(settings.saveIdentity({ accountId: '7', identityId: 'club', identity: { email: 'club@example.com' } }))).toBe('FeatureNotInPlan');
    expect((await settings.list())[0]!.identities).toHaveLength(2);

    const afterDelete = await settings.deleteIdentity({ accountId: '7', identityId: 'work' });
    expect(afterDelete.identities.map((identity) => identity.id)).toEqual(['own']);
  });
});

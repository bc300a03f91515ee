// The engine's rules service over a fake of our own gateway: "Block sender" edits the newest
// lists (moving a sender from one list to the other), bad input never reaches the gateway, and
// a watching tab hears the activity now and at each delta page of its account.
import { describe, expect, test } from 'vitest';
import { TernError } from '../../../../shared/errors';
import { EMPTY_RULES, type MailRules, type RuleRun, type RulesActivity, type RulesDoc } from '../../../../shared/mail-rules';
import { EngineRules } from '../../../../src-worker/rules/rules-service';

function fakeGateway(initial: Partial<MailRules> = {}, availability: RulesDoc['availability'] = 'available') {
  let doc: RulesDoc = { availability, revision: 5, rules: { ...EMPTY_RULES, ...initial }, keptScript: null, updatedAt: 1 };
  const saves: { rules: MailRules; baseRevision: number }[] = [];
  const gateway = {
    rules: async () => doc,
    applyFilter: async (): Promise<RuleRun> => ({ id: 1, filterId: 'f', filterName: 'F', state: 'running', total: 0, done: 0, error: null, startedAt: 1, updatedAt: 1 }),
    activity: async (): Promise<RulesActivity> => ({ revision: doc.revision, runs: [] }),
    checkForwarding: async () => ({ arrived: true, seconds: 2 }),
    saveRules: async (rules: MailRules, baseRevision: number) => {
      saves.push({ rules, baseRevision });
      if (baseRevision !== doc.revision) throw new TernError('RulesChanged');
      doc = { ...doc, rules, revision: doc.revision + 1 };
      return doc;
    },
  };
  return { saves, service: new EngineRules({ gateway: async () => gateway }) };
}

describe('EngineRules', () => {
  test('blocking a sender takes it off the allowed list, on the newest revision', async () => {
    const { service, saves } = fakeGateway({ allowed: ['bob@kite.test', 'kite.test'], blocked: ['x.test'] });
    const doc = await service.listSender({ accountId: '1', sender: ' Bob@Kite.test ', list: 'blocked' });
    expect(saves).toEqual([{ rules: expect.objectContaining({ allowed: ['kite.test'], blocked: ['x.test', 'bob@kite.test'] }), baseRevision: 5 }]);
    expect(doc.revision).toBe(6);
    const cleared = await service.listSender({ accountId: '1', sender: 'bob@kite.test', list: null });
    expect(cleared.rules.blocked).toEqual(['x.test']);
  });

  test('an account without ManageSieve cannot block; a bad sender or rules never reach the gateway', async () => {
    await expect(fakeGateway({}, 'unavailable').service.listSender({ accountId: '1', sender: 'a@b.test', list: 'blocked' })).rejects.toMatchObject({ name: 'SieveUnavailable' });
    const { service, saves } = fakeGateway();
    await expect(service.listSender({ accountId: '1', sender: 'not a sender', list: 'blocked' })).rejects.toMatchObject({ name: 'InvalidParameter' });
    await expect(service.checkForwarding({ accountId: '1', address: 'not an address' })).rejects.toMatchObject({ name: 'InvalidParameter' });
    await expect(service.save({ accountId: '1', rules: { ...EMPTY_RULES, forwarding: { enabled: true, address: 'nope', keepCopy: true } }, baseRevision: 5 })).rejects.toMatchObject({ name: 'InvalidParameter' });
    expect(saves).toEqual([]);
  });

  test('a watching tab hears the gateway\'s activity first, then each delta page of its account, until it stops watching', async () => {
    const { service } = fakeGateway();
    const heard: RulesActivity[] = [];
    const other: RulesActivity[] = [];
    const first = new Promise<void>((resolve) => {
      void service.watch({ accountId: '1' }, (activity) => {
        heard.push(activity);
        resolve();
      });
    });
    const { subscriptionId } = await service.watch({ accountId: '2' }, (activity) => void other.push(activity));
    await first;
    expect(heard).toEqual([{ revision: 5, runs: [] }]);
    const run: RuleRun = { id: 3, filterId: 'f', filterName: 'F', state: 'running', total: 40, done: 10, error: null, startedAt: 1, updatedAt: 2 };
    service.changed('1', { revision: 6, runs: [run] });
    await expect.poll(() => heard.length).toBe(2);
    expect(heard[1]).toEqual({ revision: 6, runs: [run] });
    await service.unwatch({ subscriptionId });
    service.changed('2', { revision: 9, runs: [] });
    await Promise.resolve();
    // Account 2's tab had only the first answer (if it came before the unwatch), never the change after it.
    expect(other.every((activity) => activity.revision === 5)).toBe(true);
  });
});

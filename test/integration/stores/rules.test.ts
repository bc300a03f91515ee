/**
 * Rules and discovered ManageSieve servers on both engines (rules-store.ts, and the rules
 * service's use of it), with a fake of the ManageSieve connection (the real server's behaviour
 * is sieve-rules.test.ts): a refusal from the server stores nothing, a save bumps the revision,
 * an account without ManageSieve is remembered as such; a save is a 'rules' entry of the
 * transaction log, announced; "apply to existing mail" runs keep their progress.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { TernError } from '../../../shared/errors';
import { EMPTY_RULES, type MailRules } from '../../../shared/mail-rules';
import { AccountStore } from '../../../src-server/accounts/account-store';
import { SecretBox } from '../../../src-server/crypto/secret-box';
import { ManageSieveClient, SieveCommandError, type ConnectParams } from '../../../src-server/sieve/managesieve-client';
import { RulesService } from '../../../src-server/sieve/rules-service';
import { RuleRunStore, RUN_KEEP_MS } from '../../../src-server/sieve/rule-runs';
import { RulesStore } from '../../../src-server/sieve/rules-store';
import type { SqlStore } from '../../../src-server/store/sql';
import { TransactionLog } from '../../../src-server/store/transaction-log';
import { describeOnEngines } from '../support/engines';

const server = { host: '127.0.0.1', port: 1, security: 'none' as const };

/** A ManageSieve server in memory: what a fake connection was told, and what it refuses. */
function fakeSieve(refuse: { check?: string; put?: 'quota' } = {}) {
  const scripts = new Map<string, string>([['mine', 'keep;']]);
  let active = 'mine';
  const connects: ConnectParams[] = [];
  const client = {
    listScripts: async () => [...scripts.keys()].map((name) => ({ name, active: name === active })),
    getScript: async (name: string) => scripts.get(name) ?? '',
    checkScript: async () => {
      if (refuse.check) throw new SieveCommandError('CHECKSCRIPT', { status: 'NO', code: [], text: refuse.check });
      return '';
    },
    haveSpace: async () => undefined,
    putScript: async (name: string, script: string) => {
      if (refuse.put) throw new SieveCommandError('PUTSCRIPT', { status: 'NO', code: ['QUOTA/MAXSIZE'], text: 'too big' });
      scripts.set(name, script);
    },
    setActive: async (name: string) => {
      active = name;
    },
    logout: async () => undefined,
  };
  return {
    scripts,
    connects,
    active: () => active,
    connect: async (params: ConnectParams) => {
      connects.push(params);
      return client as unknown as ManageSieveClient;
    },
  };
}

const rulesWith = (over: Partial<MailRules>): MailRules => ({ ...EMPTY_RULES, ...over });
const starFilter = { id: 'a', name: 'A', enabled: true, match: 'all' as const, conditions: [{ field: 'subject' as const, op: 'contains' as const, value: 'x' }], actions: [{ kind: 'star' as const }] };

describeOnEngines('Rules stores', (engine) => {
  let store: SqlStore;
  let accounts: AccountStore;
  let accountId: number;
  let announced: number[];
  /** The transaction log and push the rules service writes a save to. */
  const log = () => ({ txlog: new TransactionLog(store), push: { announce: (_accountId: number, latest: number) => void announced.push(latest) } });

  beforeEach(async () => {
    announced = [];
    store = await engine.open();
    accounts = new AccountStore(store, SecretBox.load({ dataDir: await engine.dataDir() }));
    accountId = (await accounts.save({ email: 'alice@tern.test', name: 'Alice', imap: server, smtp: server, password: 'Pass-word-1!' })).id;
  });
  afterEach(async () => {
    await store.close();
  });

  const service = (sieve: ReturnType<typeof fakeSieve>, sieveSetting: typeof server | null = server) =>
    new RulesService({ store, accounts, ...log(), plans: { require: async () => undefined }, domains: new Map([['tern.test', { imap: server, smtp: server, sieve: sieveSetting }]]), connect: sieve.connect, now: () => 1_000 });

  test('rules round-trip with their revision and kept script; a damaged row reads as no rules', async () => {
    const rules = new RulesStore(store);
    expect(await rules.getRules(accountId)).toEqual({ revision: 0, rules: EMPTY_RULES, keptScript: null, updatedAt: 0 });
    const saved = { revision: 3, rules: rulesWith({ blocked: ['x.test'] }), keptScript: 'mine', updatedAt: 42 };
    await rules.putRules(accountId, saved);
    expect(await rules.getRules(accountId)).toEqual(saved);
    await store.run('UPDATE mail_rules SET rules_json = ? WHERE account_id = ?', ['{not json', accountId]);
    expect((await rules.getRules(accountId)).rules).toEqual(EMPTY_RULES);
  });

  test('a discovered server, and "none", are stored per account', async () => {
    const rules = new RulesStore(store);
    expect(await rules.getServer(accountId)).toBeUndefined();
    await rules.putServer(accountId, { host: 'sieve.tern.test', port: 4190, security: 'starttls' }, 5);
    expect(await rules.getServer(accountId)).toEqual({ endpoint: { host: 'sieve.tern.test', port: 4190, security: 'starttls' }, checkedAt: 5 });
    await rules.putServer(accountId, null, 6);
    expect(await rules.getServer(accountId)).toEqual({ endpoint: null, checkedAt: 6 });
  });

  test('a save puts Tern\'s script, includes the person\'s active one, and stores the rules', async () => {
    const sieve = fakeSieve();
    const doc = await service(sieve).save({ accountId, rules: rulesWith({ filters: [starFilter] }), baseRevision: 0 });
    expect(doc).toMatchObject({ availability: 'available', revision: 1, keptScript: 'mine' });
    expect(sieve.active()).toBe('tern-rules');
    expect(sieve.scripts.get('mine')).toBe('keep;');
    expect(sieve.scripts.get('tern-rules')).toContain('include :personal "mine";');
    // Once Tern's script is active, the kept one is still included at the next save.
    const again = await service(sieve).save({ accountId, rules: doc.rules, baseRevision: 1 });
    expect(again.keptScript).toBe('mine');
    // Each save is one 'rules' entry of the account's log, announced: the other devices' delta brings the new revision.
    const { entries } = await new TransactionLog(store).read(accountId, 0, 10);
    expect(entries.map((entry) => entry.object)).toEqual(['rules', 'rules']);
    expect(announced).toEqual(entries.map((entry) => entry.txnId));
    expect(await service(sieve).activity(accountId)).toEqual({ revision: 2, runs: [] });
  });

  test('the auto reply answers mail to every address of the account (vacation :addresses with each alias)', async () => {
    const sieve = fakeSieve();
    const rules = new RulesService({
      store,
      accounts,
      ...log(),
      plans: { require: async () => undefined },
      domains: new Map([['tern.test', { imap: server, smtp: server, sieve: server }]]),
      connect: sieve.connect,
      addresses: async () => aliases,
    });
    let aliases = ['Alice.Tern@tern.test', 'alice@tern.test'];
    expect(await rules.addressesChanged(accountId)).toBe(false); // nothing saved yet
    const saved = await rules.save({ accountId, rules: rulesWith({ autoReply: { ...EMPTY_RULES.autoReply, enabled: true, body: 'Away.' } }), baseRevision: 0 });
    expect(sieve.scripts.get('tern-rules')).toContain(':addresses ["alice@tern.test", "alice.tern@tern.test"]');
    // An alias added later: the script is written again with it, the rules' revision unchanged.
    aliases = [...aliases, 'team@tern.test'];
    expect(await rules.addressesChanged(accountId)).toBe(true);
    expect(sieve.scripts.get('tern-rules')).toContain(':addresses ["alice@tern.test", "alice.tern@tern.test", "team@tern.test"]');
    expect((await rules.get(accountId)).revision).toBe(saved.revision);
  });

  test('"apply to existing mail" runs keep their filter and progress; finished runs go after an hour, running ones stay', async () => {
    const runs = new RuleRunStore(store);
    const first = await runs.create(accountId, starFilter, 1_000);
    expect(first).toMatchObject({ filterId: 'a', filterName: 'A', state: 'running', total: 0, done: 0, error: null });
    await runs.update(first.id, { total: 250, done: 100 }, 2_000);
    expect(await runs.get(first.id)).toEqual({ accountId, filter: starFilter, run: { ...first, total: 250, done: 100, updatedAt: 2_000 } });
    await runs.update(first.id, { done: 250, state: 'done' }, 3_000);
    const second = await runs.create(accountId, { ...starFilter, id: 'b' }, 4_000);
    await runs.update(second.id, { state: 'failed', error: 'AccountUnavailable' }, 4_500);
    const third = await runs.create(accountId, starFilter, 5_000);
    expect((await runs.recent(accountId, 5_000)).map((run) => [run.id, run.state, run.error])).toEqual([
      [third.id, 'running', null],
      [second.id, 'failed', 'AccountUnavailable'],
      [first.id, 'done', null],
    ]);
    // An hour after their last change the finished ones are no longer shown, and the next run deletes them.
    const later = 4_500 + RUN_KEEP_MS + 1;
    expect((await runs.recent(accountId, later)).map((run) => run.id)).toEqual([third.id]);
    await runs.create(accountId, starFilter, later);
    expect(await runs.get(first.id)).toBeUndefined();
    expect(await runs.get(third.id)).toBeDefined();
    // The third has had no step for over five minutes: its job is gone, so it reads as failed (and may be run again).
    expect((await runs.recent(accountId, later)).find((run) => run.id === third.id)).toMatchObject({ state: 'failed', error: 'OperationFailed' });
  });

  test('CHECKSCRIPT\'s refusal is SieveScriptRejected with the server\'s text, a size refusal TooLargeSieveUpdate; nothing is stored', async () => {
    const rejected = await service(fakeSieve({ check: 'line 3: unknown command' }))
      .save({ accountId, rules: rulesWith({ filters: [starFilter] }), baseRevision: 0 })
      .catch((error: unknown) => error);
    expect(rejected).toMatchObject({ name: 'SieveScriptRejected', detail: { server: 'line 3: unknown command' } });
    const tooLarge = await service(fakeSieve({ put: 'quota' }))
      .save({ accountId, rules: rulesWith({ filters: [starFilter] }), baseRevision: 0 })
      .catch((error: unknown) => error);
    expect(tooLarge).toMatchObject({ name: 'TooLargeSieveUpdate' });
    expect((await new RulesStore(store).getRules(accountId)).revision).toBe(0);
  });

  test('a domain without ManageSieve is unavailable without a connection, and remembered', async () => {
    const sieve = fakeSieve();
    const rules = service(sieve, null);
    expect((await rules.get(accountId)).availability).toBe('unavailable');
    expect(sieve.connects).toHaveLength(0);
    expect(await new RulesStore(store).getServer(accountId)).toEqual({ endpoint: null, checkedAt: 1_000 });
    await expect(rules.save({ accountId, rules: EMPTY_RULES, baseRevision: 0 })).rejects.toMatchObject({ name: 'SieveUnavailable' });
  });
  test('daylight saving time: the business-hours script is written again when its zone\'s offset changes, once', async () => {
    const sieve = fakeSieve();
    let now = Date.parse('2026-01-15T12:00:00Z');
    const rules = new RulesService({ store, accounts, ...log(), plans: { require: async () => undefined }, domains: new Map([['tern.test', { imap: server, smtp: server, sieve: server }]]), connect: sieve.connect, now: () => now });
    const hours = { enabled: true, workDays: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', timeZone: 'Europe/Berlin', subject: 'Closed', body: 'Back at nine.' };
    const saved = await rules.save({ accountId, rules: rulesWith({ businessHours: hours }), baseRevision: 0 });
    expect(sieve.scripts.get('tern-rules')).toContain(':zone "+0100"');
    expect(await rules.rewriteForZoneChanges()).toEqual([]);
    now = Date.parse('2026-07-15T12:00:00Z');
    expect(await rules.rewriteForZoneChanges()).toEqual([accountId]);
    expect(sieve.scripts.get('tern-rules')).toContain(':zone "+0200"');
    expect(await rules.rewriteForZoneChanges()).toEqual([]);
    expect((await rules.get(accountId)).revision).toBe(saved.revision);
  });
  test('block and allow lists and business hours need the plan\'s feature; filters and the auto reply do not', async () => {
    const asked: string[] = [];
    const free = new RulesService({
      store,
      accounts,
      ...log(),
      plans: {
        require: async (_accountId, feature) => {
          asked.push(feature);
          throw new TernError('FeatureNotInPlan', { detail: { feature } });
        },
      },
      domains: new Map([['tern.test', { imap: server, smtp: server, sieve: server }]]),
      connect: fakeSieve().connect,
    });
    await expect(free.save({ accountId, rules: rulesWith({ blocked: ['spam.test'] }), baseRevision: 0 })).rejects.toMatchObject({ name: 'FeatureNotInPlan', detail: { feature: 'allowBlockLists' } });
    const hours = { ...EMPTY_RULES.businessHours, enabled: true, body: 'Closed.' };
    await expect(free.save({ accountId, rules: rulesWith({ businessHours: hours }), baseRevision: 0 })).rejects.toMatchObject({ detail: { feature: 'businessAutoReply' } });
    const saved = await free.save({ accountId, rules: rulesWith({ filters: [starFilter], autoReply: { ...EMPTY_RULES.autoReply, enabled: true, body: 'Away.' } }), baseRevision: 0 });
    expect(saved.revision).toBe(1);
    expect(asked).toEqual(['allowBlockLists', 'businessAutoReply']);
  });
});

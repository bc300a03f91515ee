import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deltaResponseSchema, type DeltaChange } from '../../../../shared/api/delta';
import { FEATURES } from '../../../../shared/plans';
import { DEFAULT_PREFERENCES } from '../../../../shared/preferences';
import { signInTestApp, startTestApp, type TestApp } from '../http/gateway-app-fixture';

let gateway: TestApp;
beforeAll(async () => {
  gateway = await startTestApp();
});
afterAll(async () => gateway.close());

/** A fresh session of the account: each login is another device. */
async function signIn(email: 'alice@tern.test' | 'bob@tern.test') {
  const { accountId, headers } = await signInTestApp(gateway, email);
  return {
    accountId,
    headers,
    get: (url: string) => gateway.app.inject({ url, headers }),
    patch: (values: unknown) => gateway.app.inject({ method: 'PATCH', url: '/api/preferences', headers, payload: { values } }),
  };
}

const upsertsOf = (changes: DeltaChange[], object: 'preferences' | 'plan') => changes.filter((change) => change.op === 'upsert' && change.object === object);

describe('preferences', () => {
  test('before the first change: the defaults at revision 0', async () => {
    const alice = await signIn('alice@tern.test');
    const response = await alice.get('/api/preferences');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ revision: 0, values: DEFAULT_PREFERENCES, updatedAt: 0 });
  });

  test('a change merges, bumps the revision, is announced, and a second device sees it through GET and delta', async () => {
    const laptop = await signIn('alice@tern.test');
    const phone = await signIn('alice@tern.test');
    const cursor = await gateway.ctx.txlog.latest(laptop.accountId);
    const announced: number[] = [];
    const unsubscribe = gateway.ctx.push.subscribe(laptop.accountId, (latest) => announced.push(latest));
    const first = await laptop.patch({ theme: 'dark' });
    const second = await laptop.patch({ viewMode: 'split' });
    unsubscribe();
    expect(first.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ revision: 2, values: { ...DEFAULT_PREFERENCES, theme: 'dark', viewMode: 'split' } });
    expect(announced).toEqual([cursor + 1, cursor + 2]);

    expect((await phone.get('/api/preferences')).json()).toEqual(second.json());
    const delta = deltaResponseSchema.parse((await phone.get(`/api/delta?cursor=${cursor}`)).json());
    // Two changes of one document collapse into one upsert: its state now, at the last change's position.
    expect(upsertsOf(delta.changes, 'preferences')).toEqual([{ txnId: cursor + 2, op: 'upsert', object: 'preferences', data: second.json() }]);
    expect(delta.cursor).toBe(cursor + 2);
  });

  test('each account has its own document', async () => {
    const bob = await signIn('bob@tern.test');
    expect((await bob.get('/api/preferences')).json()).toMatchObject({ revision: 0, values: DEFAULT_PREFERENCES });
  });

  test('a bad patch is InvalidRequestData 400 and changes nothing', async () => {
    const alice = await signIn('alice@tern.test');
    const before = (await alice.get('/api/preferences')).json();
    const latest = await gateway.ctx.txlog.latest(alice.accountId);
    for (const values of [{ theme: 'purple' }, { fontSize: 12 }, {}, { spellCheck: 'yes' }, { spellWords: ['two words'] }, { spellWords: ['Tern', 'Tern'] }, { spellLanguage: 'fr' }]) {
      const response = await alice.patch(values);
      expect([JSON.stringify(values), response.statusCode, (response.json() as { error: string }).error]).toEqual([JSON.stringify(values), 400, 'InvalidRequestData']);
    }
    const noBody = await gateway.app.inject({ method: 'PATCH', url: '/api/preferences', headers: alice.headers });
    expect(noBody.statusCode).toBe(400);
    expect((await alice.get('/api/preferences')).json()).toEqual(before);
    expect((await gateway.ctx.txlog.latest(alice.accountId))).toBe(latest);
  });

  test('without a token: TokenParamMissing 400, as every API route', async () => {
    for (const [method, url] of [['GET', '/api/preferences'], ['PATCH', '/api/preferences'], ['GET', '/api/plan']] as const) {
      const response = await gateway.app.inject({ method, url, payload: method === 'PATCH' ? { values: { theme: 'dark' } } : undefined });
      expect([url, response.statusCode, (response.json() as { error: string }).error]).toEqual([url, 400, 'TokenParamMissing']);
    }
  });
});

describe('plans', () => {
  test('no plan set: paid, with every feature; a gated preference may change', async () => {
    const bob = await signIn('bob@tern.test');
    expect((await bob.get('/api/plan')).json()).toEqual({ plan: 'paid', features: [...FEATURES] });
    expect((await bob.patch({ spellCheck: false })).json()).toMatchObject({ values: { spellCheck: false } });
    // The personal word list ("Add to dictionary") roams: another device reads it.
    expect((await bob.patch({ spellWords: ['Zorblaxi'], spellLanguage: 'de' })).statusCode).toBe(200);
    expect((await (await signIn('bob@tern.test')).get('/api/preferences')).json()).toMatchObject({ values: { spellWords: ['Zorblaxi'], spellLanguage: 'de' } });
  });

  test('free: the plan reaches every device through delta, and a gated key is FeatureNotInPlan 402, changing nothing', async () => {
    const bob = await signIn('bob@tern.test');
    const cursor = await gateway.ctx.txlog.latest(bob.accountId);
    await gateway.ctx.plans.setPlan(bob.accountId, 'free');
    expect((await bob.get('/api/plan')).json()).toEqual({ plan: 'free', features: [] });
    const delta = deltaResponseSchema.parse((await bob.get(`/api/delta?cursor=${cursor}`)).json());
    expect(upsertsOf(delta.changes, 'plan')).toEqual([{ txnId: cursor + 1, op: 'upsert', object: 'plan', data: { plan: 'free', features: [] } }]);

    const before = (await bob.get('/api/preferences')).json();
    for (const values of [{ spellCheck: true }, { theme: 'light', spellCheck: true }, { spellWords: ['Zorblaxi', 'Kite'] }, { spellLanguage: 'en' }]) {
      const refused = await bob.patch(values);
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toMatchObject({ error: 'FeatureNotInPlan', detail: { feature: 'spellChecker' } });
    }
    expect((await bob.get('/api/preferences')).json()).toEqual(before);
    // Ungated keys still change; the stored gated value stays readable.
    expect((await bob.patch({ theme: 'light' })).json()).toMatchObject({ values: { theme: 'light', spellCheck: false } });

    await gateway.ctx.plans.setPlan(bob.accountId, 'paid');
    expect((await bob.patch({ spellCheck: true })).statusCode).toBe(200);
  });

  test('the priority inbox roams in the preferences: on, its model and how far it scored; a model out of bounds is refused', async () => {
    const phone = await signIn('bob@tern.test');
    const model = { weights: { repliesToSender: 2.4, directlyToYou: 1, yourThread: 2, knownContact: 1.5, notAPerson: -2.5, bulkMail: -3.2 }, bias: -1.4, trained: 1 };
    const saved = await phone.patch({ priorityInbox: true, priorityModel: model, priorityScoredThrough: 1_700_000_000_000 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().values).toMatchObject({ priorityInbox: true, priorityModel: model, priorityScoredThrough: 1_700_000_000_000 });
    const bad = await phone.patch({ priorityModel: { ...model, bias: 1e9 } });
    expect(bad.statusCode).toBe(400);
    expect((await phone.patch({ priorityModel: null })).json().values.priorityModel).toBeNull();
  });
});

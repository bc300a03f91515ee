/**
 * Identities' store and service on both engines (DESIGN §7): the own identity listed before
 * it is edited, aliases asking the plan, one default, an address one identity only, the
 * signature's limit, deletes; each change one announced txlog entry whose id is the revision.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { TernError } from '../../../shared/errors';
import { identityInputSchema, MAX_SIGNATURE_CHARS, type IdentityDraft, type IdentityInput } from '../../../shared/identities';
import { IdentityService } from '../../../src-server/identities/identity-service';
import { PlanService } from '../../../src-server/plans/plan-service';
import type { SqlStore } from '../../../src-server/store/sql';
import { TransactionLog } from '../../../src-server/store/transaction-log';
import { AccountStore } from '../../../src-server/accounts/account-store';
import { SecretBox } from '../../../src-server/crypto/secret-box';
import { describeOnEngines } from '../support/engines';

const input = (fields: IdentityDraft): IdentityInput => identityInputSchema.parse(fields);

async function addAccount(store: SqlStore, email: string): Promise<number> {
  const row = await store.get<{ id: number }>(
    `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
     VALUES (?, 'Alice Tern', 'imap.tern.test', 993, 'tls', 'smtp.tern.test', 465, 'tls', ?, 0) RETURNING id`,
    [email, Buffer.from('sealed')],
  );
  return row!.id;
}

const errorOf = async (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => (error instanceof TernError ? { name: error.name, detail: error.detail } : String(error)));

describeOnEngines('IdentityService', (engine) => {
  let store: SqlStore;
  let txlog: TransactionLog;
  let plans: PlanService;
  let announced: [number, number][];
  let identities: IdentityService;
  let alice: number;
  let bob: number;

  beforeEach(async () => {
    store = await engine.open();
    txlog = new TransactionLog(store);
    announced = [];
    const push = { announce: (accountId: number, latest: number) => announced.push([accountId, latest]) };
    plans = new PlanService({ store, txlog, push });
    const accounts = new AccountStore(store, SecretBox.load({ dataDir: await engine.dataDir() }));
    let clock = 1_000;
    identities = new IdentityService({ store, txlog, push, plans, accounts, now: () => clock++ });
    alice = await addAccount(store, 'alice@tern.test');
    bob = await addAccount(store, 'bob@tern.test');
  });
  afterEach(() => store.close());

  test('the own identity is listed and default before any edit; an alias made default takes it over; the revision is the change’s txlog id', async () => {
    expect(await identities.doc(alice)).toEqual({
      revision: 0,
      identities: [{ id: 'own', name: '', email: 'alice@tern.test', replyTo: null, bccSelf: false, isDefault: true, signatureHtml: '', signatureOnReplies: true, updatedAt: 0 }],
    });
    const own = await identities.put(alice, 'own', input({ name: '  Alice   Tern ', email: 'alice@tern.test', replyTo: 'Desk@Tern.test', bccSelf: true }));
    expect(own.identities).toEqual([{ id: 'own', name: 'Alice Tern', email: 'alice@tern.test', replyTo: 'desk@tern.test', bccSelf: true, isDefault: true, signatureHtml: '', signatureOnReplies: true, updatedAt: 1000 }]);
    const withAlias = await identities.put(alice, 'work-1', input({ name: 'Alice at Work', email: 'alice.work@tern.test', isDefault: true, signatureHtml: '<p>Alice</p>', signatureOnReplies: false }));
    expect(withAlias.identities.map(({ id, isDefault }) => [id, isDefault])).toEqual([['own', false], ['work-1', true]]);
    const log = (await txlog.read(alice, 0, 10)).entries;
    expect(log.map((entry) => entry.object)).toEqual(['identities', 'identities']);
    expect(withAlias.revision).toBe(log[1]!.txnId);
    expect(announced).toEqual([[alice, log[0]!.txnId], [alice, log[1]!.txnId]]);
    // Another account sees none of it.
    expect((await identities.doc(bob)).identities.map((identity) => identity.email)).toEqual(['bob@tern.test']);

    // The own identity made default again clears the alias's mark; deleting the alias leaves the own one.
    await identities.put(alice, 'own', input({ name: 'Alice Tern', email: 'alice@tern.test', isDefault: true }));
    expect((await identities.doc(alice)).identities.map(({ id, isDefault }) => [id, isDefault])).toEqual([['own', true], ['work-1', false]]);
    const afterDelete = await identities.delete(alice, 'work-1');
    expect(afterDelete.identities.map(({ id, isDefault }) => [id, isDefault])).toEqual([['own', true]]);
    expect(await errorOf(identities.delete(alice, 'work-1'))).toMatchObject({ name: 'InvalidOperation' });
  });

  test('refusals change nothing: an alias without the plan, the own address twice, an address used twice, a signature over the limit', async () => {
    await plans.setPlan(alice, 'free');
    expect(await errorOf(identities.put(alice, 'work-1', input({ email: 'alice.work@tern.test' })))).toEqual({ name: 'FeatureNotInPlan', detail: { feature: 'emailAlias' } });
    // The own identity needs no plan.
    await identities.put(alice, 'own', input({ email: 'alice@tern.test', name: 'Alice' }));
    await plans.setPlan(alice, 'paid');
    expect(await errorOf(identities.put(alice, 'own', input({ email: 'other@tern.test' })))).toMatchObject({ name: 'InvalidParameter', detail: [{ path: 'email' }] });
    expect(await errorOf(identities.put(alice, 'copy', input({ email: 'alice@tern.test' })))).toMatchObject({ name: 'InvalidParameter', detail: [{ path: 'email' }] });
    await identities.put(alice, 'work-1', input({ email: 'alice.work@tern.test' }));
    expect(await errorOf(identities.put(alice, 'work-2', input({ email: 'alice.work@tern.test' })))).toMatchObject({ name: 'InvalidParameter', detail: [{ path: 'email' }] });
    const long = 'x'.repeat(MAX_SIGNATURE_CHARS + 1);
    expect(await errorOf(identities.put(alice, 'work-1', input({ email: 'alice.work@tern.test', signatureHtml: long })))).toEqual({
      name: 'SignatureTooLarge',
      detail: { limit: MAX_SIGNATURE_CHARS, length: MAX_SIGNATURE_CHARS + 1, identity: 'work-1' },
    });
    const doc = await identities.doc(alice);
    expect(doc.identities.map((identity) => [identity.id, identity.email, identity.signatureHtml])).toEqual([['own', 'alice@tern.test', ''], ['work-1', 'alice.work@tern.test', '']]);

    // Sending: the own address and a known alias are found (an unknown address is not); a lapsed plan refuses the alias.
    expect((await identities.forSending(alice, 'Alice.Work@tern.test'))?.id).toBe('work-1');
    expect(await identities.forSending(alice, 'someone@tern.test')).toBeNull();
    await plans.setPlan(alice, 'free');
    expect(await errorOf(identities.forSending(alice, 'alice.work@tern.test'))).toMatchObject({ name: 'FeatureNotInPlan' });
    expect((await identities.forSending(alice, 'alice@tern.test'))?.id).toBe('own');
    // Downgrading deletes nothing.
    expect((await identities.doc(alice)).identities).toHaveLength(2);
  });
});

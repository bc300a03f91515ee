/**
 * Templates' store and service on both engines (DESIGN §7): the changes stream read from a
 * cursor (the spec's emailTemplateCursor) with tombstones, the plan's `templates` on writes
 * only, TemplateTooLarge and TemplateLimitReached writing nothing, a repeated delete waking
 * nobody; each change one announced txlog entry whose id is the revision.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { TernError } from '../../../shared/errors';
import { MAX_TEMPLATE_CHARS, MAX_TEMPLATES, templateInputSchema, type TemplateDraft } from '../../../shared/templates';
import { PlanService } from '../../../src-server/plans/plan-service';
import type { SqlStore } from '../../../src-server/store/sql';
import { TransactionLog } from '../../../src-server/store/transaction-log';
import { TemplateService } from '../../../src-server/templates/template-service';
import { describeOnEngines } from '../support/engines';

const input = (fields: TemplateDraft) => templateInputSchema.parse(fields);

async function addAccount(store: SqlStore, email: string): Promise<number> {
  const row = await store.get<{ id: number }>(
    `INSERT INTO accounts (email, name, imap_host, imap_port, imap_security, smtp_host, smtp_port, smtp_security, secret, created_at)
     VALUES (?, 'Alice Tern', 'imap.tern.test', 993, 'tls', 'smtp.tern.test', 465, 'tls', ?, 0) RETURNING id`,
    [email, Buffer.from('sealed')],
  );
  return row!.id;
}

const errorOf = async (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => (error instanceof TernError ? { name: error.name, detail: error.detail } : String(error)));

describeOnEngines('TemplateService', (engine) => {
  let store: SqlStore;
  let plans: PlanService;
  let announced: [number, number][];
  let templates: TemplateService;
  let alice: number;
  let bob: number;

  beforeEach(async () => {
    store = await engine.open();
    const txlog = new TransactionLog(store);
    announced = [];
    const push = { announce: (accountId: number, latest: number) => announced.push([accountId, latest]) };
    plans = new PlanService({ store, txlog, push });
    let clock = 1_000;
    templates = new TemplateService({ store, txlog, push, plans, now: () => clock++ });
    alice = await addAccount(store, 'alice@tern.test');
    bob = await addAccount(store, 'bob@tern.test');
  });
  afterEach(() => store.close());

  test('created, changed and deleted templates come through the stream from each cursor, oldest change first, per account', async () => {
    expect(await templates.changes(alice, '', 10)).toEqual({ templates: [], deleted: [], cursor: '', hasMore: false });
    const hello = await templates.put(alice, 'hello', input({ name: ' Hello ', subject: 'Hi {{first_name}}', bodyHtml: '<p>Dear {{first_name}},</p>' }));
    expect(hello).toEqual({ id: 'hello', name: 'Hello', subject: 'Hi {{first_name}}', bodyHtml: '<p>Dear {{first_name}},</p>', createdAt: 1000, updatedAt: 1000 });
    await templates.put(alice, 'bye', input({ name: 'Bye', bodyHtml: '<p>Bye</p>' }));
    await templates.put(bob, 'bobs', input({ name: 'Bob’s' }));
    const first = await templates.changes(alice, '', 1);
    expect(first.templates.map((t) => t.id)).toEqual(['hello']);
    expect(first.hasMore).toBe(true);
    const rest = await templates.changes(alice, first.cursor, 10);
    expect(rest.templates.map((t) => t.id)).toEqual(['bye']);
    expect(rest.hasMore).toBe(false);

    // A change and a delete after that cursor: the changed one whole, the deleted one by id.
    await templates.put(alice, 'hello', input({ name: 'Hello again', bodyHtml: '<p>Hi</p>' }));
    await templates.delete(alice, 'bye');
    const later = await templates.changes(alice, rest.cursor, 10);
    expect(later.templates).toEqual([{ id: 'hello', name: 'Hello again', subject: '', bodyHtml: '<p>Hi</p>', createdAt: 1000, updatedAt: 1003 }]);
    expect(later.deleted).toEqual(['bye']);
    expect(await templates.changes(alice, later.cursor, 10)).toEqual({ templates: [], deleted: [], cursor: later.cursor, hasMore: false });
    // The spec's reset value starts from the beginning: only live templates, deleted ones as ids.
    const all = await templates.changes(alice, '0', 10);
    expect(all.templates.map((t) => t.id)).toEqual(['hello']);
    expect(all.deleted).toEqual(['bye']);
    expect((await templates.changes(bob, '', 10)).templates.map((t) => t.id)).toEqual(['bobs']);
    // Every change announced once with its txlog id, which is the revision.
    expect(announced.filter(([account]) => account === alice)).toHaveLength(4);
    expect(await templates.revision(alice)).toBe(announced.filter(([account]) => account === alice).at(-1)![1]);
  });

  test('a repeated delete changes nothing and wakes nobody; a deleted template can be written again', async () => {
    await templates.put(alice, 'x', input({ name: 'X' }));
    await templates.delete(alice, 'x');
    const count = announced.length;
    await templates.delete(alice, 'x');
    await templates.delete(alice, 'never');
    expect(announced).toHaveLength(count);
    await templates.put(alice, 'x', input({ name: 'X again' }));
    expect((await templates.changes(alice, '', 10)).templates.map((t) => t.name)).toEqual(['X again']);
  });

  test('a body over the limit is TemplateTooLarge, one template too many TemplateLimitReached, a free plan FeatureNotInPlan — nothing written; a free plan may still read and delete', async () => {
    const big = 'x'.repeat(MAX_TEMPLATE_CHARS + 1);
    expect(await errorOf(templates.put(alice, 'big', input({ name: 'Big', bodyHtml: big })))).toEqual({ name: 'TemplateTooLarge', detail: { limit: MAX_TEMPLATE_CHARS, length: MAX_TEMPLATE_CHARS + 1, template: 'big' } });
    for (let index = 0; index < MAX_TEMPLATES; index++) await templates.put(alice, `t${index}`, input({ name: `T${index}` }));
    expect(await errorOf(templates.put(alice, 'one-more', input({ name: 'One more' })))).toEqual({ name: 'TemplateLimitReached', detail: { max: MAX_TEMPLATES } });
    // Replacing one at the limit is fine.
    await templates.put(alice, 't0', input({ name: 'T0 renamed' }));
    const ids = (await templates.changes(alice, '', 500)).templates.map((t) => t.id);
    expect(ids).toHaveLength(MAX_TEMPLATES);
    expect(ids).not.toContain('big');
    expect(ids).not.toContain('one-more');

    await plans.setPlan(alice, 'free');
    expect(await errorOf(templates.put(alice, 't1', input({ name: 'Nope' })))).toEqual({ name: 'FeatureNotInPlan', detail: { feature: 'templates' } });
    await templates.delete(alice, 't1');
    expect((await templates.changes(alice, '', 500)).templates).toHaveLength(MAX_TEMPLATES - 1);
  });
});

/**
 * The address book through the gateway's HTTP API (the whole app, every route and the error
 * handler, over an in-memory SQLite): the round trip a device makes, a second device hearing
 * of it through delta, and bad input refused with the catalogue's errors, changing nothing;
 * an import through its route and the node's job worker, then exported as CSV and vCard.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { contactImportSchema } from '../../../../shared/api/contact-imports';
import { contactChangesSchema, contactSchema } from '../../../../shared/api/contacts';
import { deltaResponseSchema } from '../../../../shared/api/delta';
import { signInTestApp, startTestApp, type TestApp } from '../http/gateway-app-fixture';

let gateway: TestApp;
beforeAll(async () => {
  gateway = await startTestApp();
});
afterAll(async () => gateway.close());

async function signIn(email: 'alice@tern.test' | 'bob@tern.test') {
  const { accountId, headers } = await signInTestApp(gateway, email);
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) => gateway.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { accountId, headers, call };
}

describe('contacts over HTTP', () => {
  test('create, list, edit, delete, restore and merge; a second device catches up from its cursor after the delta says so', async () => {
    const laptop = await signIn('alice@tern.test');
    const phone = await signIn('alice@tern.test');
    const deltaCursor = await gateway.ctx.txlog.latest(laptop.accountId);

    const created = await laptop.call('PUT', '/api/contacts/card-aaaa-0001', { firstName: ' Ann ', emails: ['Ann@Kite.test', 'ann+news@kite.test'], phones: ['+49 30 1'] });
    expect(created.statusCode).toBe(200);
    expect(contactSchema.parse(created.json())).toMatchObject({ id: 'card-aaaa-0001', firstName: 'Ann', emails: ['ann@kite.test'], phones: ['+49 30 1'] });

    const delta = deltaResponseSchema.parse((await phone.call('GET', `/api/delta?cursor=${deltaCursor}`)).json());
    expect(delta.changes).toEqual([{ txnId: deltaCursor + 1, op: 'upsert', object: 'contacts', data: { revision: deltaCursor + 1 } }]);
    const all = contactChangesSchema.parse((await phone.call('GET', '/api/contacts')).json());
    expect(all.contacts.map((c) => c.id)).toEqual(['card-aaaa-0001']);

    await laptop.call('PUT', '/api/contacts/card-aaaa-0002', { lastName: 'Lee', emails: ['ann@home.test'] });
    expect((await laptop.call('GET', '/api/contacts/card-aaaa-0002')).json()).toMatchObject({ lastName: 'Lee' });
    const merged = await laptop.call('POST', '/api/contacts/merge', { ids: ['card-aaaa-0001', 'card-aaaa-0002'] });
    expect(merged.json()).toMatchObject({ id: 'card-aaaa-0001', firstName: 'Ann', lastName: 'Lee', emails: ['ann@kite.test', 'ann@home.test'] });
    const caughtUp = contactChangesSchema.parse((await phone.call('GET', `/api/contacts?since=${encodeURIComponent(all.cursor)}`)).json());
    expect({ contacts: caughtUp.contacts.map((c) => c.id), deleted: caughtUp.deleted }).toEqual({ contacts: ['card-aaaa-0001'], deleted: ['card-aaaa-0002'] });

    expect((await laptop.call('DELETE', '/api/contacts/card-aaaa-0001')).json()).toEqual({ ok: true });
    expect((await laptop.call('GET', '/api/contacts/card-aaaa-0001')).statusCode).toBe(404);
    expect((await laptop.call('POST', '/api/contacts/restore', { ids: ['card-aaaa-0001'] })).json()).toEqual({ restored: 1 });
    expect((await laptop.call('GET', '/api/contacts/card-aaaa-0001')).statusCode).toBe(200);

    // Bob sees none of it.
    const bob = await signIn('bob@tern.test');
    expect(contactChangesSchema.parse((await bob.call('GET', '/api/contacts')).json()).contacts).toEqual([]);
    expect((await bob.call('GET', '/api/contacts/card-aaaa-0001')).statusCode).toBe(404);
  });

  test('bad input is the catalogue error naming the field, and changes nothing', async () => {
    const alice = await signIn('alice@tern.test');
    const latest = await gateway.ctx.txlog.latest(alice.accountId);
    const cases: [string, string, unknown, number, string][] = [
      ['PUT', '/api/contacts/card-bad-0001', { firstName: 'X', emails: ['not an address'] }, 400, 'InvalidRequestData'],
      ['PUT', '/api/contacts/card-bad-0001', { emails: [] }, 400, 'InvalidRequestData'],
      ['PUT', '/api/contacts/card-bad-0001', { firstName: 'x'.repeat(201) }, 400, 'InvalidRequestData'],
      ['PUT', '/api/contacts/card-bad-0001', { firstName: 'X', phones: Array.from({ length: 21 }, (_, i) => String(i)) }, 400, 'InvalidRequestData'],
      ['PUT', '/api/contacts/bad id!', { firstName: 'X' }, 400, 'InvalidParameter'],
      ['POST', '/api/contacts/merge', { ids: ['card-bad-0001'] }, 400, 'InvalidRequestData'],
      ['POST', '/api/contacts/merge', { ids: ['card-none-0001', 'card-none-0002'] }, 404, 'InvalidOperation'],
      ['GET', '/api/contacts?limit=0', undefined, 400, 'InvalidParameter'],
    ];
    for (const [method, url, payload, status, error] of cases) {
      const response = await alice.call(method as 'PUT', url, payload);
      expect([url, JSON.stringify(payload), response.statusCode, (response.json() as { error: string }).error]).toEqual([url, JSON.stringify(payload), status, error]);
    }
    const invalid = (await alice.call('PUT', '/api/contacts/card-bad-0001', { firstName: 'X', emails: ['ok@kite.test', 'nope'] })).json() as { detail: { path: string }[] };
    expect(invalid.detail.map((issue) => issue.path)).toEqual(['emails.1']);
    expect(await gateway.ctx.txlog.latest(alice.accountId)).toBe(latest);
    // Without a token: TokenParamMissing, as every API route.
    expect((await gateway.app.inject({ method: 'GET', url: '/api/contacts' })).json()).toMatchObject({ error: 'TokenParamMissing' });
  });

  test('import a CSV: 202, the job writes it, its status says so; a 50 MB body is InvalidCsvUpload; export as CSV and vCard', async () => {
    const carol = await signIn('bob@tern.test');
    const file = '\ufeffFirst Name,Last Name,E-mail 1 - Value,Phone 1 - Value\r\nImo,Gen,imo@gen.test ::: imo@work.test,+1 555\r\n';
    const started = await carol.call('POST', '/api/contacts/imports', { fileName: 'google.csv', data: Buffer.from(file).toString('base64') });
    expect(started.statusCode).toBe(202);
    const { id } = contactImportSchema.parse(started.json());
    // The app's job worker runs it; the status is polled as the engine does.
    await vi.waitFor(
      async () => expect(contactImportSchema.parse((await carol.call('GET', `/api/contacts/imports/${id}`)).json())).toMatchObject({ state: 'done', created: 1, written: 1 }),
      { timeout: 5_000, interval: 20 },
    );

    // Fastify refuses on Content-Length before reading: the upload's own error, not MessageSizeExceeded.
    const huge = await gateway.app.inject({ method: 'POST', url: '/api/contacts/imports', headers: { ...carol.headers, 'content-type': 'application/json' }, payload: `{"fileName":"x.csv","data":"${'A'.repeat(50 * 1024 * 1024)}"}` });
    expect([huge.statusCode, (huge.json() as { error: string; detail: { reason: string } }).error, (huge.json() as { detail: { reason: string } }).detail.reason]).toEqual([400, 'InvalidCsvUpload', 'tooLarge']);

    const csv = await carol.call('GET', '/api/contacts/export?format=csv');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="contacts.csv"');
    expect(csv.body).toContain('Imo,Gen,,imo@gen.test ::: imo@work.test,+1 555,');
    const vcard = await carol.call('GET', '/api/contacts/export?format=vcard');
    expect(vcard.body).toMatch(/^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
    expect(vcard.body).toContain('EMAIL;TYPE=INTERNET:imo@work.test');
  });

  test("contact lists: a list of cards and its recipients; on a plan without 'contactGroups' every list route is FeatureNotInPlan 402", async () => {
    const alice = await signIn('alice@tern.test');
    await alice.call('PUT', '/api/contacts/card-list-0001', { firstName: 'Lu', emails: ['lu@kite.test'] });
    const put = await alice.call('PUT', '/api/contact-lists/list-0000-0001', { name: ' Friends ', memberIds: ['card-list-0001', 'card-list-0001'] });
    expect([put.statusCode, put.json()]).toEqual([200, expect.objectContaining({ name: 'Friends', memberIds: ['card-list-0001'] })]);
    expect((await alice.call('GET', '/api/contact-lists/list-0000-0001/recipients')).json()).toEqual({ recipients: [{ name: 'Lu', email: 'lu@kite.test' }] });
    await gateway.ctx.plans.setPlan(alice.accountId, 'free');
    try {
      for (const [method, url] of [['GET', '/api/contact-lists'], ['PUT', '/api/contact-lists/list-0000-0001'], ['DELETE', '/api/contact-lists/list-0000-0001'], ['GET', '/api/contact-lists/list-0000-0001/recipients']] as const) {
        const refused = await alice.call(method, url, method === 'PUT' ? { name: 'X', memberIds: [] } : undefined);
        expect([url, refused.statusCode, refused.json()]).toEqual([url, 402, expect.objectContaining({ error: 'FeatureNotInPlan', detail: { feature: 'contactGroups' } })]);
      }
    } finally {
      await gateway.ctx.plans.setPlan(alice.accountId, 'paid');
    }
  });
});

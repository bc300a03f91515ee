/**
 * The mail engine's recipient suggestions end to end over a fake gateway: new mail brought
 * by delta reaches an index already built (its ranked rows ride the change), and a cache
 * whose ranks an older engine made (none, here) is rebuilt once when the account starts.
 */
import { afterEach, expect, test } from 'vitest';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { withRead, withWrite } from '../../../../src-worker/db/store';
import { FakeMailServer } from '../fake-mail-server';
import { Profile, waitFor } from '../mail-test-kit';

const engines: { close(): void }[] = [];
afterEach(() => engines.splice(0).forEach((engine) => engine.close()));

const T0 = Date.UTC(2026, 0, 1);

async function started(profile: Profile, server: FakeMailServer) {
  const engine = await profile.engine();
  engines.push(engine);
  const runtime = await waitFor(() => engine.runtime(server.accountId), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle' && runtime.sync.state.appliedTransactionId === server.latest, 'the sync');
  return engine;
}

test('mail arriving after the index was built is suggested; the one written to (Sent) comes first after one letter', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  server.deliver({ subject: 'Hi', at: T0, from: 'Dora' });
  const profile = new Profile([server]);
  await profile.addAccounts();
  const engine = await started(profile, server);
  const suggest = async (prefix: string) => (await engine.queries.suggestAddresses({ accountIds: [server.accountId], prefix, limit: 5 })).map((address) => address.email);
  expect(await suggest('d')).toEqual(['dora@example.com']);

  // Dan writes twice; the person writes once to Dex (the fake's Sent message, addressed to Dex).
  server.deliver({ subject: 'One', at: T0 + 1000, from: 'Dan' });
  server.deliver({ subject: 'Two', at: T0 + 2000, from: 'Dan' });
  const sent = server.deliver({ subject: 'To Dex', at: T0 + 3000, folder: 'sent', unread: false });
  server.messages.set(sent.id, { ...sent, to: [{ name: 'Dex', email: 'dex@example.com' }] });
  server.announce();
  await waitFor(async () => (await suggest('d')).length === 3, 'the new people suggested');
  expect(await suggest('d')).toEqual(['dex@example.com', 'dan@example.com', 'dora@example.com']);
});

test('a cache whose ranks an older engine made is rebuilt once when the account starts', async () => {
  const server = new FakeMailServer();
  server.standardFolders();
  for (let i = 0; i < 3; i++) server.deliver({ subject: `Note ${i}`, at: T0 + i, from: 'Cleo' });
  const profile = new Profile([server]);
  await profile.addAccounts();
  const first = await started(profile, server);
  first.close();
  // As an engine before ranks left it: no rank row, no version.
  const store = await profile.stores.open(server.accountId, MAIL_SCHEMA);
  await withWrite(store, ['Contact', 'JSONBlob'], async (tx) => {
    await tx.clear('Contact');
    await tx.delete('JSONBlob', 'contact-ranks');
  });
  const engine = await started(profile, server);
  await waitFor(async () => (await engine.queries.suggestAddresses({ accountIds: [server.accountId], prefix: 'cle', limit: 5 })).length === 1, 'Cleo suggested again');
  const row = await withRead(store, ['Contact', 'JSONBlob'], async (tx) => ({ cleo: await tx.get('Contact', 'cleo@example.com'), version: await tx.get('JSONBlob', 'contact-ranks') }));
  expect(row.cleo).toMatchObject({ name: 'Cleo', is_searched_or_sent: 0 });
  expect(Number(row.cleo?.mailSearchRank)).toBeGreaterThan(0);
  expect(row.version).toMatchObject({ version: 1 });
});

/**
 * Delta pages that carry the account's preferences or plan: stored in the page's own
 * transaction (with the cursor) where the settings service reads them, an older document
 * never replacing a newer one, and the page saying so (settingsChanged) for the tabs. The
 * rules' activity is not stored (the rules live on the gateway): the page carries it for the tabs.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, test } from 'vitest';
import type { DeltaResponse } from '../../../../shared/api/delta';
import { DEFAULT_PREFERENCES } from '../../../../shared/preferences';
import { idbStoreFactory } from '../../../../src-worker/db/idb-store';
import { MAIL_SCHEMA } from '../../../../src-worker/db/mail-schema';
import { withRead } from '../../../../src-worker/db/store';
import { readCachedPlan, readCachedPreferences, SETTINGS_TABLES, toAccountSettings } from '../../../../src-worker/mail-store/settings-rows';
import { reconcileConfirmed } from '../../../../src-worker/outbox/action-store';
import { DeltaApplier } from '../../../../src-worker/sync/delta-applier';

async function setup() {
  const store = await idbStoreFactory(new IDBFactory()).open('7', MAIL_SCHEMA);
  const applier = new DeltaApplier({ accountId: '7', store: async () => store, reconcile: reconcileConfirmed });
  const apply = async (page: DeltaResponse) => {
    const { appliedTransactionId } = await applier.state();
    return applier.apply(page, { fromCursor: appliedTransactionId, latestKnown: page.cursor });
  };
  const settings = () => withRead(store, SETTINGS_TABLES, async (tx) => toAccountSettings('7', await readCachedPreferences(tx), await readCachedPlan(tx)));
  return { apply, settings };
}

const doc = (revision: number, theme: 'dark' | 'light') => ({ revision, values: { ...DEFAULT_PREFERENCES, theme }, updatedAt: revision });

describe('delta pages with preferences and plan', () => {
  test('a preferences upsert and a plan upsert are stored with the page and reported', async () => {
    const { apply: applyPage, settings: read } = await setup();
    const page = await applyPage({
      changes: [
        { txnId: 1, op: 'upsert', object: 'preferences', data: doc(3, 'dark') },
        { txnId: 2, op: 'upsert', object: 'plan', data: { plan: 'free', features: [] } },
      ],
      cursor: 2,
      hasMore: false,
    });
    expect(page).toMatchObject({ settingsChanged: true, threadIds: [], state: { appliedTransactionId: 2 } });
    expect(await read()).toMatchObject({ revision: 3, plan: 'free', features: [], preferences: { theme: 'dark' } });
  });

  test('a mail-only page does not say settings changed; an older document does not replace a newer one', async () => {
    const { apply, settings } = await setup();
    await apply({ changes: [{ txnId: 1, op: 'upsert', object: 'preferences', data: doc(5, 'dark') }], cursor: 1, hasMore: false });
    await apply({ changes: [{ txnId: 2, op: 'upsert', object: 'preferences', data: doc(4, 'light') }], cursor: 2, hasMore: false });
    expect(await settings()).toMatchObject({ revision: 5, preferences: { theme: 'dark' } });
    const mailOnly = await apply({ changes: [], cursor: 3, hasMore: false });
    expect(mailOnly?.settingsChanged).toBe(false);
  });

  test('a rules upsert is reported with the page (the newest of the page), the cursor moving past it', async () => {
    const { apply } = await setup();
    const run = { id: 4, filterId: 'f', filterName: 'F', state: 'running' as const, total: 10, done: 5, error: null, startedAt: 1, updatedAt: 2 };
    const page = await apply({
      changes: [
        { txnId: 1, op: 'upsert', object: 'rules', data: { revision: 2, runs: [run] } },
        { txnId: 2, op: 'upsert', object: 'plan', data: { plan: 'free', features: [] } },
      ],
      cursor: 2,
      hasMore: false,
    });
    expect(page).toMatchObject({ rulesActivity: { revision: 2, runs: [run] }, state: { appliedTransactionId: 2 } });
    const mailOnly = await apply({ changes: [], cursor: 3, hasMore: false });
    expect(mailOnly?.rulesActivity).toBeNull();
  });
});

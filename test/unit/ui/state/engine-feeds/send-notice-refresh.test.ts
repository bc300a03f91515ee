// @vitest-environment happy-dom
/**
 * Send notices live in the engine; each tab mirrors them (sendNoticesAtom). A notice
 * dismissed in one tab (or sent again there) goes from another when that tab comes into view.
 */
import { createStore } from 'jotai';
import { expect, test, vi } from 'vitest';
import { sendNoticesAtom } from '../../../../../src-ui/state/atoms';
import { createWorkerBridge } from '../../../../../src-ui/state/engine-feeds';
import { createFakeEngine } from '../../fake-mail-engine';

test('the notices are read at start, and again when the tab comes into view', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  engine.notices.push({ noticeId: 'send-1', accountId: '1001', kind: 'maybeSent', draftId: 'd-1', subject: 'Plans', at: 1 });
  const store = createStore();
  const bridge = createWorkerBridge({ engine, store });
  await bridge.start();
  await vi.waitFor(() => expect(store.get(sendNoticesAtom).map((notice) => notice.noticeId)).toEqual(['send-1']));

  // Another tab dismissed it.
  engine.notices.splice(0);
  document.dispatchEvent(new Event('visibilitychange'));
  await vi.waitFor(() => expect(store.get(sendNoticesAtom)).toEqual([]));

  bridge.stop();
});

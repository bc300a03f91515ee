import { describe, expect, test } from 'vitest';
import { mergeSenders, unsubscribeMethod, type SenderSummary } from '../../../shared/senders';

const row = (fields: Partial<SenderSummary> & Pick<SenderSummary, 'email' | 'accountIds'>): SenderSummary => ({ name: '', count: 1, unread: 0, lastAt: 0, unsubscribe: null, ...fields });

describe('senders across accounts', () => {
  test('one row per address: counts added, the newest time, name and offer kept; most mail first', () => {
    const offer = { accountId: 'b', messageId: '9', method: 'mailto' as const, target: 'leave@x.example' };
    const merged = mergeSenders([
      [row({ email: 'news@x.example', accountIds: ['a'], count: 5, unread: 1, lastAt: 10, name: 'Old name' }), row({ email: 'solo@x.example', accountIds: ['a'], count: 2, lastAt: 50 })],
      [row({ email: 'news@x.example', accountIds: ['b'], count: 3, unread: 3, lastAt: 20, name: 'News', unsubscribe: offer })],
    ]);
    expect(merged).toEqual([
      { email: 'news@x.example', name: 'News', count: 8, unread: 4, lastAt: 20, accountIds: ['a', 'b'], unsubscribe: offer },
      row({ email: 'solo@x.example', accountIds: ['a'], count: 2, lastAt: 50 }),
    ]);
  });

  test('the way to unsubscribe is the gateway’s choice: one-click, else mailto, else the page', () => {
    expect(unsubscribeMethod({ http: 'https://x.example/u', mailto: 'mailto:l@x.example', oneClick: true })).toEqual({ method: 'oneClick', target: 'https://x.example/u' });
    expect(unsubscribeMethod({ http: 'https://x.example/u', mailto: 'mailto:l@x.example?subject=bye', oneClick: false })).toEqual({ method: 'mailto', target: 'l@x.example' });
    expect(unsubscribeMethod({ http: 'https://x.example/u', mailto: null, oneClick: false })).toEqual({ method: 'url', target: 'https://x.example/u' });
    expect(unsubscribeMethod({ http: null, mailto: null, oneClick: false })).toBeNull();
  });
});

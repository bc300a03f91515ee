// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { createFakeEngine } from '../fake-mail-engine';
import { click, renderApp, unmountAll, waitFor } from '../render-app';

afterEach(unmountAll);

const messagesOf = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('.reading-pane .tern-message')];
const calls = (engine: ReturnType<typeof createFakeEngine>, method: string) => engine.calls.filter((call) => call.method === method).length;

/** A read thread of Alice's inbox with two messages or more, opened by URL (not from its row). */
async function openedByUrl(pick: 'first' | 'last' = 'last') {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const candidates = engine.threadsOf('1001', 'inbox').filter((row) => row.unreadCount === 0 && row.messageCount >= 2);
  const target = pick === 'last' ? candidates.at(-1)! : candidates[0]!;
  const view = await renderApp({ engine, path: `/mail/1001/1001?thread=${encodeURIComponent(target.key)}` });
  // The first render loads the app's lazy chunks: on a loaded machine that alone can pass the default 3 s.
  await waitFor(() => expect(messagesOf(view.container)).toHaveLength(target.messageCount), 10_000);
  return { engine, view, target };
}

describe('the open conversation is the engine\'s live thread, entering jotai in one feed', { timeout: 15_000 }, () => {
  test('a flag changed in another tab shows in the open conversation, without the tab reading the thread again', async () => {
    const { engine, view, target } = await openedByUrl();
    expect(calls(engine, 'mail.watchThread')).toBe(1);
    expect(view.container.querySelector('.reading-pane .tern-message.is-unread')).toBeNull();
    await act(async () => {
      await engine.commands.run({ command: { kind: 'markRead', accountId: '1001', threadIds: [target.threadId], read: false } });
    });
    await waitFor(() => expect(view.container.querySelector('.reading-pane .tern-message.is-unread')).not.toBeNull());
    expect(calls(engine, 'mail.getThread')).toBe(0);
    expect(calls(engine, 'mail.watchThread')).toBe(1);
  });

  test('a new message in the thread (another device) shows in the open conversation', async () => {
    const { engine, view, target } = await openedByUrl('first');
    await act(async () => void engine.addToThread(target.key));
    await waitFor(() => expect(messagesOf(view.container)).toHaveLength(target.messageCount + 1));
    expect(calls(engine, 'mail.getThread')).toBe(0);
    expect(calls(engine, 'mail.watchThread')).toBe(1);
  });

  test('a thread deleted in another tab closes the pane; opening another ends the first watch', async () => {
    const { engine, view, target } = await openedByUrl();
    await act(async () => {
      await engine.commands.run({ command: { kind: 'delete', accountId: '1001', threadIds: [target.threadId] } });
    });
    await waitFor(() => expect(view.search().thread).toBeUndefined());

    const rows = [...view.container.querySelectorAll<HTMLElement>('#thread-list [role="option"]:not([aria-disabled="true"])')];
    await click(rows[0]!);
    await click(rows[1]!);
    await waitFor(() => expect(calls(engine, 'mail.watchThread')).toBe(3));
    const unwatched = engine.calls.filter((call) => call.method === 'mail.unwatch').map((call) => (call.params as { subscriptionId: string }).subscriptionId);
    expect(unwatched.filter((id) => id.startsWith('thread-')).length).toBeGreaterThanOrEqual(1);
    expect(calls(engine, 'mail.getThread')).toBe(0);
  });
});

// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from './fake-mail-engine';
import { click, renderApp, unmountAll, waitFor } from './render-app';

afterEach(unmountAll);

const rowsOf = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('#thread-list [role="option"]:not([aria-disabled="true"])')];

test('a conversation opened again shows its thread and bodies at once, without asking the worker again', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const getBody = engine.mail.getBody.bind(engine.mail);
  const bodies: string[] = [];
  engine.mail.getBody = (params) => {
    bodies.push(params.messageId);
    return getBody(params);
  };
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  await waitFor(() => expect(rowsOf(view.container).length).toBeGreaterThan(5));
  // Two read threads: opening them changes nothing in their rows.
  const [a, b] = rowsOf(view.container).filter((row) => !row.classList.contains('is-unread')).map((row) => row.id);
  const open = async (id: string) => {
    await click(document.getElementById(id));
    await waitFor(() => expect(view.container.querySelector('.tern-plain')?.textContent).toContain('Hello from the fake engine.'));
  };
  const threadCalls = () => engine.calls.filter((call) => call.method === 'mail.getThread').length;

  await open(a!);
  await open(b!);
  const [threadsBefore, bodiesBefore] = [threadCalls(), bodies.length];
  await click(document.getElementById(a!));
  // Right after the click (no waiting for an answer): A's conversation with its body.
  expect(view.container.querySelector('.reading-pane-loading')).toBeNull();
  expect(view.container.querySelector('.tern-body-loading')).toBeNull();
  expect(view.container.querySelector('.tern-plain')?.textContent).toContain('Hello from the fake engine.');
  expect(view.search().thread).toBe(a!.slice('thread-'.length));
  expect(threadCalls()).toBe(threadsBefore);
  expect(bodies.length).toBe(bodiesBefore);
});

// @vitest-environment happy-dom
/**
 * An open composer survives a reload: the tab remembers (sessionStorage) which draft it was
 * writing, by an id it names before the engine answers, and opens it again with the draft's
 * content read back from the engine; closing or sending forgets it.
 */
import { afterEach, expect, test } from 'vitest';
import { newDraftId, OPEN_COMPOSERS_KEY, readOpenComposers } from '../../../src-ui/composer/open-composers';
import { createFakeEngine } from './fake-mail-engine';
import { click, press, renderApp, typeInto, unmountAll, waitFor } from './render-app';

afterEach(() => {
  unmountAll();
  sessionStorage.clear();
});

const composer = (container: HTMLElement) => container.querySelector<HTMLFormElement>('form.tern-composer');
const subjectInput = (container: HTMLElement) => composer(container)!.querySelector<HTMLInputElement>('input.tern-subject')!;

test('a reload opens the composer that was open, with what its draft holds (from the engine)', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] });
  const draftId = newDraftId();
  await engine.commands.saveDraft({
    draft: { accountId: '1002', draftId, to: [{ name: 'Alice', email: 'alice@tern.test' }], cc: [], bcc: [], subject: 'Re: Plans for Friday', html: '<p>See you at noon</p>', attachmentIds: [] },
  });
  sessionStorage.setItem(OPEN_COMPOSERS_KEY, JSON.stringify([{ accountId: '1002', draftId, mode: 'reply' }]));

  const view = await renderApp({ engine, path: '/mail/unified/inbox' });
  // The app's first render and the composer's chunk: over 8 s on a machine loaded 20 deep. Ends when it shows.
  await waitFor(() => expect(composer(view.container)).not.toBeNull(), 15_000);
  expect(subjectInput(view.container).value).toBe('Re: Plans for Friday');
  await waitFor(() => expect(composer(view.container)!.textContent).toContain('See you at noon'));
  expect(composer(view.container)!.textContent).toContain('alice@tern.test');
  expect(engine.calls.filter((call) => call.method === 'commands.openDraft').map((call) => call.params)).toEqual([{ accountId: '1002', draftId }]);
  // Still remembered: another reload would open it again.
  expect(readOpenComposers(sessionStorage)).toEqual([{ accountId: '1002', draftId, mode: 'reply', minimized: false }]);
});

test('a new message is remembered from its first save, under the id the tab gave it; closing forgets it', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/unified/inbox' });
  await waitFor(() => expect(view.container.querySelector('#thread-list [role="option"]')).not.toBeNull());
  await press('c', {}, view.container.querySelector<HTMLElement>('#thread-list')!);
  await waitFor(() => expect(composer(view.container)).not.toBeNull());
  expect(readOpenComposers(sessionStorage)).toEqual([]);

  await typeInto(subjectInput(view.container), 'Quarterly numbers');
  // The autosave's quiet spell (1.5 s), then the save names the draft.
  const [entry] = await waitFor(() => {
    const entries = readOpenComposers(sessionStorage);
    expect(entries).toHaveLength(1);
    return entries;
  });
  expect(entry).toMatchObject({ accountId: '1001', mode: 'new', minimized: false });
  expect(entry!.draftId).toMatch(/^local-[0-9a-f-]{36}$/);
  expect((await engine.commands.openDraft({ accountId: '1001', draftId: entry!.draftId })).subject).toBe('Quarterly numbers');

  await click(composer(view.container)!.querySelector('button[aria-label^="Close"]'));
  await waitFor(() => expect(composer(view.container)).toBeNull());
  expect(sessionStorage.getItem(OPEN_COMPOSERS_KEY)).toBeNull();
});

test('a remembered draft that is gone (sent elsewhere, deleted) opens nothing and is forgotten', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  sessionStorage.setItem(OPEN_COMPOSERS_KEY, JSON.stringify([{ accountId: '1001', draftId: newDraftId(), mode: 'new' }]));
  const view = await renderApp({ engine, path: '/mail/unified/inbox' });
  await waitFor(() => expect(engine.calls.some((call) => call.method === 'commands.openDraft')).toBe(true));
  await waitFor(() => expect(sessionStorage.getItem(OPEN_COMPOSERS_KEY)).toBeNull());
  expect(composer(view.container)).toBeNull();
});

test('a minimized composer is remembered minimized and opens minimized after a reload', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const draftId = newDraftId();
  await engine.commands.saveDraft({ draft: { accountId: '1001', draftId, to: [], cc: [], bcc: [], subject: 'Folded away', html: '<p>Later</p>', attachmentIds: [] } });
  sessionStorage.setItem(OPEN_COMPOSERS_KEY, JSON.stringify([{ accountId: '1001', draftId, mode: 'new', minimized: false }]));
  const first = await renderApp({ engine, path: '/mail/unified/inbox' });
  await waitFor(() => expect(composer(first.container)).not.toBeNull());
  const minimize = composer(first.container)!.querySelector<HTMLButtonElement>('button[aria-label="Minimize the composer"]')!;
  expect(minimize.getAttribute('aria-expanded')).toBe('true');
  await click(minimize);
  expect(composer(first.container)!.classList.contains('is-minimized')).toBe(true);
  expect(readOpenComposers(sessionStorage)).toEqual([{ accountId: '1001', draftId, mode: 'new', minimized: true }]);
  first.unmount();

  // The reload: minimized again, its text kept; Show unfolds it.
  const second = await renderApp({ engine, path: '/mail/unified/inbox' });
  await waitFor(() => expect(composer(second.container)?.classList.contains('is-minimized')).toBe(true));
  expect(subjectInput(second.container).value).toBe('Folded away');
  const show = composer(second.container)!.querySelector<HTMLButtonElement>('button[aria-label="Show the composer"]')!;
  expect(show.getAttribute('aria-expanded')).toBe('false');
  await click(show);
  expect(composer(second.container)!.classList.contains('is-minimized')).toBe(false);
  // Folded again, a click on its title bar unfolds it too.
  await click(composer(second.container)!.querySelector('button[aria-label="Minimize the composer"]'));
  await click(composer(second.container)!.querySelector('.tern-composer-title'));
  expect(composer(second.container)!.classList.contains('is-minimized')).toBe(false);
  expect(readOpenComposers(sessionStorage)[0]?.minimized).toBe(false);
});

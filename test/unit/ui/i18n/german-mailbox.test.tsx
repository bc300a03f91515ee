// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine } from '../fake-mail-engine';
import { byRole, renderApp, unmountAll, waitFor } from '../render-app';

afterEach(unmountAll);

test('in German the mailbox speaks German: sidebar, toolbar, counts, empty reading pane; dates and numbers by Intl in de', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/unified/inbox', locale: 'de' });
  const nav = await waitFor(() => byRole(view.container, 'navigation', 'Postfächer'));
  for (const folder of ['Posteingang', 'Entwürfe', 'Gesendet', 'Archiv', 'Papierkorb']) expect(nav.textContent).toContain(folder);
  byRole(view.container, 'button', 'Archivieren');
  byRole(view.container, 'button', 'Als ungelesen markieren');
  await waitFor(() => expect(view.container.querySelector('.toolbar-count')?.textContent).toMatch(/^\d+ Konversationen$/));
  expect(view.container.querySelector('.reading-pane-empty')?.textContent).toContain('Keine Konversation ausgewählt');
  // A row's accessible name carries its full date, written by Intl in German.
  const row = view.container.querySelector('#thread-list [role="option"][aria-label]');
  expect(row?.getAttribute('aria-label')).toMatch(/\b\d{1,2}\.\d{1,2}\.\d{4}\b/);
  expect(view.container.textContent).not.toMatch(/\b(Inbox|Drafts|Archive|Mark as unread|conversations)\b/);
});

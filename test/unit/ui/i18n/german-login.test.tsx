// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { createFakeEngine, DEMO_LOGINS } from '../fake-mail-engine';
import { byRole, click, renderApp, typeInto, unmountAll, waitFor } from '../render-app';

afterEach(unmountAll);

const input = (container: HTMLElement, name: string) => container.querySelector<HTMLInputElement>(`input[name="${name}"]`);

test('in German the login screen speaks German, catalogue errors included, and <html lang> says so', async () => {
  const view = await renderApp({ engine: createFakeEngine({ logins: DEMO_LOGINS, loggedIn: [] }), path: '/login', locale: 'de' });
  await waitFor(() => byRole(view.container, 'heading', 'Anmelden'));
  expect(document.documentElement.lang).toBe('de');
  expect(view.container.textContent).toContain('Adresse und Passwort des E-Mail-Kontos eingeben.');
  expect(view.container.textContent).not.toMatch(/Sign in|Email address|Next/);

  await typeInto(input(view.container, 'email')!, 'alice..x@tern.test');
  await click(byRole(view.container, 'button', 'Weiter'));
  const email = input(view.container, 'email')!;
  await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
  expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toContain('Diese E-Mail-Adresse ist ungültig.');
});

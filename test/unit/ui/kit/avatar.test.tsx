// @vitest-environment happy-dom
import { afterEach, expect, test } from 'vitest';
import { avatarHue } from '../../../../shared/avatar-hue';
import { Avatar } from '../../../../src-ui/kit/Avatar';
import { createFakeEngine } from '../fake-mail-engine';
import { byRole, press, renderApp, unmountAll, waitFor } from '../render-app';
import { cleanup, render } from '../support/render';

afterEach(() => {
  cleanup();
  unmountAll();
});

const avatarIn = (container: HTMLElement) => container.querySelector<HTMLElement>('.avatar')!;

test('one person, one avatar: the same initials (reading order) and colour at every size; only the size changes', () => {
  const small = avatarIn(render(<Avatar name="Smith, John" email="John.Smith@X.test" size={28} />));
  const large = avatarIn(render(<Avatar name="Smith, John" email="john.smith@x.test" size={36} />));
  expect(small.textContent).toBe('JS');
  expect(large.textContent).toBe('JS');
  expect(small.style.getPropertyValue('--avatar-hue')).toBe(String(avatarHue('john.smith@x.test')));
  expect(large.style.getPropertyValue('--avatar-hue')).toBe(small.style.getPropertyValue('--avatar-hue'));
  expect(large.style.background).toBe(small.style.background);
  expect([small.style.width, large.style.width]).toEqual(['28px', '36px']);
  // No name: the address's first letter. An account's own colour (iconColor) wins over the rule.
  expect(avatarIn(render(<Avatar name="" email="bob@x.test" />)).textContent).toBe('B');
  expect(avatarIn(render(<Avatar name="Ann" email="ann@x.test" hue={7} />)).style.getPropertyValue('--avatar-hue')).toBe('7');
});

test('the thread list and the conversation draw the sender the same way', async () => {
  const engine = createFakeEngine({ loggedIn: ['alice@tern.test'] });
  const view = await renderApp({ engine, path: '/mail/1001/1001' });
  const row = await waitFor(() => {
    const first = view.container.querySelector<HTMLElement>('#thread-list [role="option"]:not([aria-disabled="true"])');
    expect(first?.querySelector('.avatar')).toBeTruthy();
    return first!;
  });
  const list = view.container.querySelector<HTMLElement>('#thread-list')!;
  const inRow = avatarIn(row);
  list.focus();
  await press('Enter', {}, list);
  // The conversation view itself (its chunk loaded), not the reading pane's summary shown meanwhile.
  const inConversation = await waitFor(() => {
    const same = [...byRole(view.container, 'region', 'Conversation').querySelectorAll<HTMLElement>('.tern-conversation .avatar')].find((avatar) => avatar.style.getPropertyValue('--avatar-hue') === inRow.style.getPropertyValue('--avatar-hue'));
    expect(same).toBeDefined();
    return same!;
  });
  expect(inConversation.textContent).toBe(inRow.textContent);
  expect(inConversation.style.background).toBe(inRow.style.background);
});

// @vitest-environment happy-dom
import { act, useState } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { Address } from '../../../../shared/api/mail';
import { RecipientField } from '../../../../src-ui/composer/RecipientField';
import type { RecipientChip } from '../../../../src-ui/composer/recipients';
import { byRole, cleanup, click, key, one, render, typeInto } from '../support/render';

const PEOPLE: Address[] = [
  { name: 'Ann Lee', email: 'ann@example.com' },
  { name: 'Anna Berg', email: 'anna@example.org' },
  { name: 'Andy Roe', email: 'andy@example.net' },
];

let latest: RecipientChip[] = [];
function Field({ suggest }: { suggest: (prefix: string) => Promise<readonly Address[]> }) {
  const [chips, setChips] = useState<RecipientChip[]>([]);
  const [text, setText] = useState('');
  latest = chips;
  return <RecipientField label="To" chips={chips} onChange={setChips} text={text} onTextChange={setText} suggest={suggest} suggestDelayMs={100} />;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function typeAndWait(input: HTMLInputElement, value: string) {
  typeInto(input, value);
  await act(async () => {
    await vi.advanceTimersByTimeAsync(100);
  });
}

test('suggestions come from suggest(prefix) and are picked with the keyboard', async () => {
  const suggest = vi.fn(async (prefix: string) => PEOPLE.filter((person) => person.name.toLowerCase().startsWith(prefix.toLowerCase())));
  const view = render(<Field suggest={suggest} />);
  const input = one(view, 'combobox', 'To') as HTMLInputElement;
  await typeAndWait(input, 'an');
  expect(suggest).toHaveBeenCalledWith('an');
  expect(input.getAttribute('aria-expanded')).toBe('true');
  const options = byRole(view, 'option');
  expect(options.map((option) => option.textContent)).toEqual(['ALAnn Leeann@example.com', 'ABAnna Berganna@example.org', 'ARAndy Roeandy@example.net']);
  expect(input.getAttribute('aria-activedescendant')).toBe(options[0]?.id);

  key(input, 'ArrowDown');
  key(input, 'ArrowDown');
  expect(input.getAttribute('aria-activedescendant')).toBe(options[2]?.id);
  key(input, 'ArrowDown'); // wraps to the first
  key(input, 'ArrowUp'); // and back to the last
  expect(byRole(view, 'option').find((option) => option.getAttribute('aria-selected') === 'true')?.textContent).toContain('Andy Roe');

  key(input, 'Enter');
  expect(latest.map((chip) => chip.email)).toEqual(['andy@example.net']);
  expect(input.value).toBe('');
  expect(input.getAttribute('aria-expanded')).toBe('false');
});

test('Escape closes the list without reaching the composer; Tab picks the active suggestion', async () => {
  // The composer listens on an ancestor, through React.
  const outer = vi.fn();
  const view = render(
    <div onKeyDown={outer}>
      <Field suggest={async () => PEOPLE} />
    </div>,
  );
  const input = one(view, 'combobox', 'To') as HTMLInputElement;
  await typeAndWait(input, 'a');
  key(input, 'Escape');
  expect(input.getAttribute('aria-expanded')).toBe('false');
  expect(outer).not.toHaveBeenCalled();
  key(input, 'Escape'); // with the list closed, Escape goes on (the composer closes)
  expect(outer).toHaveBeenCalledTimes(1);

  await typeAndWait(input, 'an');
  key(input, 'Tab');
  expect(latest.map((chip) => chip.email)).toEqual(['ann@example.com']);
});

test('already chosen addresses are not suggested again; a stale answer is ignored', async () => {
  let resolveFirst: (value: readonly Address[]) => void = () => undefined;
  const suggest = vi.fn((prefix: string) => (prefix === 'a' ? new Promise<readonly Address[]>((resolve) => (resolveFirst = resolve)) : Promise.resolve(PEOPLE)));
  const view = render(<Field suggest={suggest} />);
  const input = one(view, 'combobox', 'To') as HTMLInputElement;
  await typeAndWait(input, 'a');
  await typeAndWait(input, 'an');
  await act(async () => {
    resolveFirst([{ name: 'Stale', email: 'stale@example.com' }]);
    await vi.advanceTimersByTimeAsync(0);
  });
  expect(byRole(view, 'option').map((option) => option.textContent)).not.toContain('Stale');
  key(input, 'Enter');
  await typeAndWait(input, 'an');
  expect(byRole(view, 'option').some((option) => option.textContent?.includes('ann@example.com'))).toBe(false);
});

test('typed addresses become chips on comma; an invalid one is marked with the catalogue message', async () => {
  const view = render(<Field suggest={async () => []} />);
  const input = one(view, 'combobox', 'To') as HTMLInputElement;
  typeInto(input, 'Bob <bob@example.com>');
  key(input, ',');
  typeInto(input, 'not-an-address');
  key(input, 'Enter');
  expect(latest.map((chip) => [chip.email, chip.valid])).toEqual([
    ['bob@example.com', true],
    ['not-an-address', false],
  ]);
  const chips = view.querySelectorAll('.tern-chip');
  expect(chips[1]?.classList.contains('is-invalid')).toBe(true);
  expect(one(view, 'alert').textContent).toBe('This email address is not valid. “not-an-address”');
  expect(input.getAttribute('aria-invalid')).toBe('true');
  expect(one(view, 'button', 'Edit not-an-address, invalid address')).toBeTruthy();

  // Remove by its button; Backspace in the empty box removes the last chip.
  click(one(view, 'button', 'Remove not-an-address'));
  expect(latest).toHaveLength(1);
  key(input, 'Backspace');
  expect(latest).toHaveLength(0);
});

test('editing a chip puts it back in the text box', () => {
  const view = render(<Field suggest={async () => []} />);
  const input = one(view, 'combobox', 'To') as HTMLInputElement;
  typeInto(input, 'bob@exampel');
  key(input, 'Enter');
  click(one(view, 'button', 'Edit bob@exampel, invalid address'));
  expect(input.value).toBe('bob@exampel');
  expect(latest).toHaveLength(0);
});

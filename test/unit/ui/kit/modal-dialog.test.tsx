// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { ModalDialog } from '../../../../src-ui/kit/ModalDialog';
import { cleanup, key, render } from '../support/render';

afterEach(cleanup);

const clickAt = (target: Element, clientX: number, clientY: number) =>
  act(() => {
    target.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX, clientY }));
  });

test('a native <dialog> named by its title; the focus goes to its first control; Escape closes', () => {
  const onClose = vi.fn();
  const view = render(
    <ModalDialog title="Rename folder" onClose={onClose}>
      <input aria-label="Name" />
    </ModalDialog>,
  );
  const dialog = view.querySelector('dialog')!;
  expect(dialog.open).toBe(true);
  expect(dialog.getAttribute('aria-labelledby')).toBe(dialog.querySelector('h2')!.id);
  expect(document.activeElement).toBe(dialog.querySelector('input'));
  key(dialog, 'Escape');
  expect(onClose).toHaveBeenCalledTimes(1);
});

test('a backdrop click closes only a dialog that asks for it, and only outside its box', () => {
  const onClose = vi.fn();
  const view = render(
    <ModalDialog title="Keyboard shortcuts" onClose={onClose} closeOnBackdrop>
      <p>text</p>
    </ModalDialog>,
  );
  const dialog = view.querySelector('dialog')!;
  vi.spyOn(dialog, 'getBoundingClientRect').mockReturnValue({ left: 100, right: 500, top: 100, bottom: 400 } as DOMRect);
  clickAt(dialog, 300, 200); // on the dialog's own padding: inside
  clickAt(dialog.querySelector('p')!, 20, 20); // a child: never the backdrop
  expect(onClose).not.toHaveBeenCalled();
  clickAt(dialog, 20, 20);
  expect(onClose).toHaveBeenCalledTimes(1);
  cleanup();

  const other = vi.fn();
  const plain = render(
    <ModalDialog title="Delete folder?" onClose={other}>
      <p>text</p>
    </ModalDialog>,
  ).querySelector('dialog')!;
  vi.spyOn(plain, 'getBoundingClientRect').mockReturnValue({ left: 100, right: 500, top: 100, bottom: 400 } as DOMRect);
  clickAt(plain, 20, 20);
  expect(other).not.toHaveBeenCalled();
});

test('busy holds it open against Escape; the dialog\'s own key hook sees each key first', () => {
  const onClose = vi.fn();
  const seen: string[] = [];
  const view = render(
    <ModalDialog title="Emptying" onClose={onClose} busy onKeyDown={(event) => seen.push(event.key)}>
      <p>text</p>
    </ModalDialog>,
  );
  const dialog = view.querySelector('dialog')!;
  key(dialog, 'Escape');
  expect(onClose).not.toHaveBeenCalled();
  expect(seen).toEqual(['Escape']);
});

/** Renders a React tree into happy-dom for component tests, with act() around it. */
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mounted: Root[] = [];

export function render(ui: ReactNode): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  mounted.push(root);
  act(() => root.render(ui));
  return container;
}

export function cleanup(): void {
  for (const root of mounted.splice(0)) act(() => root.unmount());
  document.body.innerHTML = '';
}

/** Sets an input's value the way React notices (the native setter, then an input event). */
export function typeInto(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')?.set;
  act(() => {
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export function key(target: Element, key: string, init: KeyboardEventInit = {}): void {
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
  });
}

export function click(target: Element | null | undefined): void {
  if (!target) throw new Error('Nothing to click.');
  act(() => {
    (target as HTMLElement).click();
  });
}

/** Elements by role and accessible name (aria-label, labelledby, label[for] or text), like getByRole. */
export function byRole(root: ParentNode, role: string, name?: string | RegExp): HTMLElement[] {
  const implicit: Record<string, string> = {
    button: 'button:not([role]), [role="button"]',
    textbox: 'input[type="text"]:not([role]), input:not([type]):not([role]), textarea, [role="textbox"]',
    combobox: '[role="combobox"], select',
    option: '[role="option"]',
    listbox: '[role="listbox"]',
    dialog: '[role="dialog"]',
    status: '[role="status"], output',
    alert: '[role="alert"]',
    article: 'article',
    region: 'section[aria-label], [role="region"]',
    progressbar: 'progress, [role="progressbar"]',
    toolbar: '[role="toolbar"]',
    heading: 'h1, h2, h3, h4, h5, h6',
    link: 'a[href]',
  };
  const candidates = Array.from(root.querySelectorAll<HTMLElement>(implicit[role] ?? `[role="${role}"]`));
  if (name === undefined) return candidates;
  return candidates.filter((element) => {
    const label = accessibleName(element);
    return typeof name === 'string' ? label === name : name.test(label);
  });
}

export function accessibleName(element: HTMLElement): string {
  const aria = element.getAttribute('aria-label');
  if (aria) return aria;
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) return labelledBy.split(' ').map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '').join(' ').trim();
  if (element.id) {
    const label = element.ownerDocument.querySelector(`label[for="${element.id}"]`);
    if (label) return (label.textContent ?? '').trim();
  }
  return (element.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export function one(root: ParentNode, role: string, name?: string | RegExp): HTMLElement {
  const found = byRole(root, role, name);
  if (found.length !== 1) throw new Error(`Expected one ${role} named ${String(name)}, found ${found.length}.`);
  return found[0] as HTMLElement;
}

export async function flush(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
  });
}

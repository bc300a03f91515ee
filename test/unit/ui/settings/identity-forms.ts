/** What the Identity and Email alias page tests share: the engine with its settings, and finding their forms and fields. */
import { createFakeEngine } from '../fake-mail-engine';
import type { FakeSettings } from './fake-settings';

export const engineWith = (settings: FakeSettings) => Object.assign(createFakeEngine({ loggedIn: ['alice@tern.test', 'bob@kite.test'] }), { settings });

/** An element by its accessible name (byRole matches explicit roles only). */
const named = (element: string) => (container: HTMLElement, name: string) => {
  const found = container.querySelector<HTMLElement>(`${element}[aria-label="${name}"]`);
  if (!found) throw new Error(`No ${element} ${name}: ${container.textContent}`);
  return found;
};
export const formNamed = named('form');
export const sectionNamed = named('section');

/** A form's input by its label's text. */
export const input = (form: HTMLElement, label: string) => {
  const labelled = [...form.querySelectorAll('label')].find((candidate) => candidate.textContent === label);
  const found = labelled && form.querySelector<HTMLInputElement>(`#${CSS.escape(labelled.htmlFor)}`);
  if (!found) throw new Error(`No field ${label}`);
  return found;
};

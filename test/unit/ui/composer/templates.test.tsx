// @vitest-environment happy-dom
/**
 * The composer's Templates menu: the From account's templates listed, Ctrl+Shift+Y opens it,
 * a template whose fields have no value for this message is not inserted but said
 * (TemplateVariableMissing, the fields named) with "insert with them empty"; inserting fills
 * an empty subject; Insert HTML and Save as template ask the plan first.
 */
import '../support/happy-dom-node-name';
import { afterEach, expect, test, vi } from 'vitest';
import { Composer } from '../../../../src-ui/composer/Composer';
import { composeNew } from '../../../../src-ui/composer/compose-initial';
import type { ComposerWriting } from '../../../../src-ui/composer/ComposerTemplates';
import type { Template } from '../../../../shared/templates';
import { cleanup, click, key, render } from '../support/render';

const ACCOUNTS = [{ accountId: 'acc1', identityId: 'own', name: 'Alice', email: 'alice@tern.test', isDefault: true }];
const HELLO: Template = { id: 'hello', name: 'Hello', subject: 'Hi {{first_name}}', bodyHtml: '<p>Dear {{first_name}},</p>', createdAt: 1, updatedAt: 1 };

function setup(allowed: boolean) {
  const writing: ComposerWriting = {
    templatesOf: (accountId) => (accountId === 'acc1' ? [HELLO] : []),
    saveTemplate: vi.fn(async () => undefined),
    allowed: () => allowed,
    requestPaywall: vi.fn(),
  };
  const view = render(
    <Composer initial={composeNew('acc1')} accounts={ACCOUNTS} writing={writing} onSave={vi.fn(async () => ({ draftId: 'd1' }))} onSend={vi.fn()} onUndo={vi.fn()} onUpload={vi.fn()} suggest={vi.fn(async () => [])} onClose={vi.fn()} />,
  );
  const item = (name: string) => [...view.querySelectorAll<HTMLElement>('[role="menuitem"]')].find((element) => element.textContent?.includes(name));
  return { view, writing, item };
}

afterEach(() => cleanup());

test('Ctrl+Shift+Y lists the templates; one whose fields have no value is refused by name, then inserted with them empty on request', () => {
  const { view, item } = setup(true);
  key(view.querySelector('form')!, 'Y', { ctrlKey: true, shiftKey: true });
  expect(item('Hello')).toBeDefined();
  expect(item('Save as template')).toBeDefined();
  click(item('Hello'));
  const alert = view.querySelector('[role="alert"]');
  expect(alert?.textContent).toContain('have no value for this recipient');
  expect(alert?.textContent).toContain('{{first_name}}');
  const blanks = [...(alert?.querySelectorAll('button') ?? [])].find((button) => button.textContent === 'Insert with them empty');
  click(blanks);
  expect(view.querySelector('[role="alert"]')).toBeNull();
  // The subject was empty: the template's, its field left empty.
  expect([...view.querySelectorAll('input')].some((input) => input.value === 'Hi ')).toBe(true);
});

test('without the plan, Save as template and Insert HTML show the paywall and open nothing', () => {
  const { view, writing, item } = setup(false);
  click(view.querySelector('button[aria-label="Templates"]'));
  click(item('Insert HTML'));
  expect(writing.requestPaywall).toHaveBeenCalledWith('insertHtml');
  click(view.querySelector('button[aria-label="Templates"]'));
  click(item('Save as template'));
  expect(writing.requestPaywall).toHaveBeenCalledWith('templates');
  expect(document.querySelector('dialog')).toBeNull();
});

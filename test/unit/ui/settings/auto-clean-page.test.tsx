// @vitest-environment happy-dom
/**
 * Settings → Auto clean with an in-memory AutoCleanService standing in for the gateway: a
 * refused field is marked in place (in the page's words) and what was typed stays; a rule
 * that would touch everything asks for the tick and is refused without it, saved with it; a
 * free plan gets the Auto clean paywall instead of a preview. The gateway's side is
 * test/integration/auto-clean.test.ts.
 */
import { afterEach, expect, test } from 'vitest';
import { fieldProblem, isBroad, ruleProblems, type AutoCleanDoc, type AutoCleanInput, type AutoCleanPreview } from '../../../../shared/auto-clean';
import { TernError } from '../../../../shared/errors';
import type { AutoCleanService } from '../../../../shared/worker-api';
import { byRole, click, renderApp, step, typeInto, unmountAll, waitFor } from '../render-app';
import { FakeSettings } from './fake-settings';
import { engineWith, input } from './identity-forms';

afterEach(unmountAll);

/** The checkbox inside the label that says `text`. */
function checkbox(container: HTMLElement, text: string): HTMLInputElement {
  const box = [...container.querySelectorAll('label')].find((label) => label.textContent?.includes(text))?.querySelector<HTMLInputElement>('input[type="checkbox"]');
  if (!box) throw new Error(`No checkbox ${text}`);
  return box;
}

/** Throws until the element shows the text (waitFor retries on a throw). */
function showing(element: HTMLElement, text: string): true {
  if (!element.textContent?.includes(text)) throw new Error(`Not shown: ${text} in ${element.textContent}`);
  return true;
}

/** The gateway's answers, kept in memory: the same checks (shared/auto-clean.ts), a broad rule needing `confirmed`. */
class FakeAutoClean implements AutoCleanService {
  readonly saved: AutoCleanInput[] = [];
  private doc: AutoCleanDoc = { rules: [], runs: [] };

  async get() {
    return this.doc;
  }
  async preview({ input }: { accountId: string; input: AutoCleanInput }): Promise<AutoCleanPreview> {
    this.check(input);
    return { count: 4, folderTotal: 4, folderPath: 'INBOX', kept: { starred: 1, newest: 0 }, sample: [{ uid: 1, subject: 'Old deal', from: 'news@shop.example', date: 0 }], uids: [1, 2, 3, 4], needsConfirmation: isBroad(input) };
  }
  async save({ input }: { accountId: string; ruleId?: string; input: AutoCleanInput }) {
    this.check(input);
    if (input.enabled && isBroad(input) && !input.confirmed) throw new TernError('AutoCleanConfirmRequired', { detail: { count: 4, folderTotal: 4 } });
    this.saved.push(input);
    const rule = { ...input, id: String(this.saved.length), folderPath: 'INBOX', confirmed: input.confirmed === true, lastRunAt: null };
    this.doc = { ...this.doc, rules: [...this.doc.rules, rule] };
    return this.doc;
  }
  async remove() {
    return this.doc;
  }
  async runNow(): Promise<never> {
    throw new TernError('OperationFailed');
  }
  async undo(): Promise<never> {
    throw new TernError('AutoCleanUndoUnavailable');
  }
  private check(input: AutoCleanInput) {
    const problems = ruleProblems(input);
    if (input.folderId === '999') problems.push(fieldProblem('folderId', 'folderMissing'));
    if (problems.length > 0) throw new TernError('AutoCleanRuleInvalid', { detail: { fields: problems } });
  }
}

test('bad input marked in place; a rule that touches everything needs the tick; a free plan gets the paywall', async () => {
  const autoClean = new FakeAutoClean();
  const settings = new FakeSettings({ '1001': {}, '1002': { plan: 'free' } });
  const view = await renderApp({ engine: Object.assign(engineWith(settings), { autoClean }), path: '/settings/auto-clean' });
  const found = <T extends Element = HTMLElement>(selector: string): T => {
    const element = view.container.querySelector<T>(selector);
    if (!element) throw new Error(`No ${selector}`);
    return element;
  };
  await waitFor(() => showing(view.container, 'No rules yet.'));
  await click(byRole(view.container, 'button', 'New rule'));
  const form = await waitFor(() => found<HTMLFormElement>('.auto-clean-editor'));
  await typeInto(input(form, 'Name (optional)'), 'Everything old');
  await typeInto(input(form, 'Older than (days)'), '0');
  await typeInto(input(form, 'From (address or domain)'), 'not a sender');
  await click(byRole(form, 'button', 'Preview'));
  await waitFor(() => showing(form, 'Enter a whole number of days from 1 to 3,650.'));
  expect(form.textContent).toContain('Enter an email address (news@shop.example) or a domain (shop.example).');
  expect(input(form, 'Older than (days)').getAttribute('aria-invalid')).toBe('true');
  expect(input(form, 'Name (optional)').value).toBe('Everything old');

  // No sender, no newsletter condition: the preview counts and asks for the tick.
  await typeInto(input(form, 'Older than (days)'), '7');
  await typeInto(input(form, 'From (address or domain)'), '');
  await click(checkbox(form, 'Only newsletters'));
  await click(byRole(form, 'button', 'Preview'));
  await waitFor(() => showing(form, '4 messages in Inbox would move to Trash.'));
  expect(form.textContent).toContain('This rule would clean out everything');
  await click(checkbox(form, 'Run every hour'));
  await click(byRole(form, 'button', 'Save rule'));
  await waitFor(() => byRole(form, 'alert'));
  expect(byRole(form, 'alert').textContent).toBe('This rule would clean out everything in its folder. Confirm that this is what you want.');
  expect(autoClean.saved).toEqual([]);
  await click(checkbox(form, 'Yes, clean out Inbox like this'));
  await click(byRole(form, 'button', 'Save rule'));
  await waitFor(() => found('.auto-clean-rule'));
  expect(autoClean.saved).toEqual([{ name: 'Everything old', sender: '', newsletters: false, folderId: null, ageDays: 7, action: 'trash', keepNewest: 1, enabled: true, confirmed: true }]);
  expect(view.container.querySelector('.auto-clean-rule')!.textContent).toContain('All mail in Inbox, older than 7 days → Trash');

  // Bob's plan has no auto clean: the paywall, not a preview.
  const picker = view.container.querySelector<HTMLSelectElement>('select.settings-select')!;
  await step(() => {
    picker.value = '1002';
    picker.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await click(await waitFor(() => byRole(view.container, 'button', 'New rule')));
  const bobForm = await waitFor(() => found<HTMLFormElement>('.auto-clean-editor'));
  await click(byRole(bobForm, 'button', 'Preview'));
  const paywall = await waitFor(() => byRole(view.container, 'dialog', 'Auto clean'));
  expect(paywall.textContent).toContain('Auto clean is not included in your plan.');
});

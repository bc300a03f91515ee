/**
 * A page object for the mail screens: the few things every e2e test needs, found the way
 * a person (or a screen reader) finds them: by role and accessible name.
 */
import type { Locator, Page } from 'playwright-core';

export class MailPage {
  constructor(readonly page: Page) {}

  /** The thread list: a listbox named after the mailbox (a `select` is one too, hence the id). */
  threadList(): Locator {
    return this.page.locator('#thread-list[role="listbox"]');
  }

  rows(): Locator {
    return this.threadList().getByRole('option');
  }

  row(index: number): Locator {
    return this.rows().nth(index);
  }

  toolbarButton(name: string | RegExp): Locator {
    return this.page.getByRole('toolbar', { name: 'Conversation actions' }).getByRole('button', { name });
  }

  sidebar(): Locator {
    return this.page.getByRole('navigation', { name: 'Mailboxes' });
  }

  searchBox(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search mail' });
  }

  readingPane(): Locator {
    return this.page.getByRole('region', { name: /Conversation|Reading pane/ });
  }

  async waitForRows(): Promise<void> {
    await this.threadList().locator('[role="option"]:not([aria-disabled="true"])').first().waitFor();
  }

  /** Rows the DOM holds right now (the virtual list's budget: ≤ ~100). */
  async domRowCount(): Promise<number> {
    return this.rows().count();
  }

  async openSettings(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Settings' }).click();
    return this.page.getByRole('menu', { name: 'Settings' });
  }

  /**
   * Picks a theme or a view in the Settings menu, as a person would. Since issue 21 these roam
   * with the account's preferences, so a value planted in localStorage (only the boot cache)
   * would be overruled by the engine's.
   */
  async chooseInSettings(item: RegExp): Promise<void> {
    const menu = await this.openSettings();
    await menu.getByRole('menuitemradio', { name: item }).click();
    await menu.waitFor({ state: 'detached' });
  }

  /** Logs in through the login screen (email first, then password). */
  async login(email: string, password: string): Promise<void> {
    await this.page.getByLabel('Email address').fill(email);
    await this.page.getByRole('button', { name: 'Next' }).click();
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }
}

/** The open composer: a form named after its subject that holds the message body. */
export const composerForm = (page: Page, subject: string | RegExp = /./) =>
  page.getByRole('form', { name: subject }).filter({ has: page.getByRole('textbox', { name: 'Message body' }) });

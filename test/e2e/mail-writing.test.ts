/**
 * Writing mail end to end on the demo setup (global-setup.ts): the sender name set in the
 * settings, attachments by the file picker and by a real drop on the body with their upload
 * progress (XMLHttpRequest in the SharedWorker, its network slowed through DevTools so a few
 * MB take seconds), an upload that fails offline and is retried, Send with its Undo toast, and
 * the message as Bob gets it: from the sender name, with every attachment, in his mail server
 * and in his conversation view.
 */
import { ImapFlow, type MessageStructureObject } from 'imapflow';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { findFreePorts } from '../harness/ports';
import { launchChromium, screenshot } from './chromium';
import { addAccount, eventually, literal, logIn, newDemoContext, openFolder, rowWith, watch, type Watched } from './demo-session';
import type { MailPage } from './mail-page';
import { workerNetwork, type WorkerNetwork } from './worker-network';

const baseUrl = inject('baseUrl');
const demo = inject('demo');
const { alice, bob } = demo;

const MB = 1024 * 1024;
const SENDER_NAME = 'Alice Tern (e2e)';
const subject = `Site plans and budget ${Date.now().toString(36)}`;
/** What Alice attaches, and how. */
const FILES = {
  picked: { name: 'budget-2026.pdf', type: 'application/pdf', size: 3 * MB },
  dropped: { name: 'site-plan.zip', type: 'application/zip', size: 2.5 * MB },
  retried: { name: 'minutes.txt', type: 'text/plain', size: 200 * 1024 },
} as const;

let browser: Browser;
let context: BrowserContext;
let tab: Watched;
let page: Page;
let mail: MailPage;
let network: WorkerNetwork;

beforeAll(async () => {
  const [debuggingPort] = await findFreePorts(1);
  browser = await launchChromium([`--remote-debugging-port=${debuggingPort}`]);
  context = await newDemoContext(browser);
  tab = watch(await context.newPage());
  ({ page, mail } = tab);
  await logIn(page, baseUrl, alice);
  network = await workerNetwork(debuggingPort!);
});
afterAll(async () => {
  network?.close();
  await browser?.close();
});

/** Bytes that do not compress to nothing (a few MB of one value would). */
const fileBytes = (size: number) => {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
};

/** The open composer (its name follows the subject). */
const composer = () => page.getByRole('form').filter({ has: page.getByRole('textbox', { name: 'Message body' }) });

/** Records in the page every aria-valuenow each upload progress bar shows, as React draws it. */
async function recordProgress(): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, number[]> = {};
    (window as unknown as { uploadProgress: Record<string, number[]> }).uploadProgress = seen;
    const look = () => {
      for (const bar of document.querySelectorAll('[role="progressbar"]')) {
        const name = bar.getAttribute('aria-label') ?? '';
        const value = Number(bar.getAttribute('aria-valuenow'));
        const values = (seen[name] ??= []);
        if (values.at(-1) !== value) values.push(value);
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
}
const progressOf = (fileName: string) => page.evaluate((name) => (window as unknown as { uploadProgress: Record<string, number[]> }).uploadProgress[name] ?? [], `Uploading ${fileName}`);

/**
 * Progress that moved through values between 0 and 100, never back, and got near the end. The
 * bar is replaced by the attachment row when the upload finishes; on a busy machine React may draw
 * that row in the same frame as the last progress event, so the final 100 % need not be painted.
 */
function expectRealProgress(values: readonly number[], fileName: string) {
  expect(values.length, `${fileName}: progress values ${values.join(', ')}`).toBeGreaterThan(3);
  expect(values.filter((value) => value > 0 && value < 100).length, `${fileName}: values between 0 and 100`).toBeGreaterThan(1);
  expect(values.at(-1), `${fileName}: last value`).toBeGreaterThanOrEqual(90);
  for (let i = 1; i < values.length; i++) expect(values[i]!, `${fileName}: progress went back`).toBeGreaterThanOrEqual(values[i - 1]!);
}

/** The attachment row of a file in the composer, once uploaded (its Remove button). */
const uploaded = (box: Locator, fileName: string) => box.getByRole('button', { name: `Remove ${fileName}` });

describe('writing mail with attachments on the demo setup', () => {
  test('1. the sender name is set per account in the settings dropdown', async () => {
    const settings = await mail.openSettings();
    await settings.getByRole('menuitem', { name: /^Sender name/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Sender name' });
    const field = dialog.getByLabel(`Sender name for ${alice.email}`);
    // Empty: the gateway's name (made from the address) is what goes out.
    await expect(field.inputValue()).resolves.toBe('');
    await expect(field.getAttribute('placeholder')).resolves.toBe('Alice');
    await field.fill(`  ${SENDER_NAME} `);
    await dialog.getByText(`Mail goes out as “${SENDER_NAME} <${alice.email}>”.`).waitFor();
    await screenshot(page, 'writing-sender-name');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Sender name saved.' }).waitFor();
  });

  test('2. attach by the picker and by a drop on the body, each with progress up to 100 %; a failed upload is retried; send', async () => {
    await recordProgress();
    await network.throttleUploads(1.5 * MB);
    await page.getByRole('button', { name: 'Compose' }).click();
    const box = composer();
    await box.waitFor();
    await expect(box.getByLabel('From').textContent()).resolves.toBe(`${SENDER_NAME} <${alice.email}>`);
    await box.getByRole('combobox', { name: 'To' }).fill(bob.email);
    await box.getByRole('combobox', { name: 'To' }).press('Enter');
    await box.getByRole('list', { name: 'To recipients' }).getByRole('button', { name: `Remove ${bob.email}` }).waitFor();
    await box.getByLabel('Subject').fill(subject);
    const body = box.getByRole('textbox', { name: 'Message body' });
    await body.click();
    await page.keyboard.type('The budget and the site plan, as promised.');

    // The picker.
    const chooser = page.waitForEvent('filechooser');
    await box.getByRole('button', { name: 'Attach files' }).click();
    const { picked, dropped, retried } = FILES;
    await (await chooser).setFiles({ name: picked.name, mimeType: picked.type, buffer: fileBytes(picked.size) });
    const pickedBar = box.getByRole('progressbar', { name: `Uploading ${picked.name}` });
    await expect.poll(async () => Number(await pickedBar.getAttribute('aria-valuenow').catch(() => '0')), { timeout: 10_000 }).toBeGreaterThan(20);
    await screenshot(page, 'writing-picker-progress');
    await uploaded(box, picked.name).waitFor({ timeout: 30_000 });
    expectRealProgress(await progressOf(picked.name), picked.name);

    // A real drop on the body: dragenter and dragover show the drop zone, the drop attaches.
    const dataTransfer = await page.evaluateHandle(
      ({ name, type, size }) => {
        const bytes = new Uint8Array(size);
        for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], name, { type }));
        return transfer;
      },
      { ...dropped },
    );
    await body.dispatchEvent('dragenter', { dataTransfer });
    await body.dispatchEvent('dragover', { dataTransfer });
    await box.getByText('Drop files to attach').waitFor();
    await screenshot(page, 'writing-drag-over');
    await body.dispatchEvent('drop', { dataTransfer });
    await expect(box.getByText('Drop files to attach').count()).resolves.toBe(0);
    const droppedBar = box.getByRole('progressbar', { name: `Uploading ${dropped.name}` });
    await expect.poll(async () => Number(await droppedBar.getAttribute('aria-valuenow').catch(() => '0')), { timeout: 10_000 }).toBeGreaterThan(20);
    await screenshot(page, 'writing-drop-progress');
    await uploaded(box, dropped.name).waitFor({ timeout: 30_000 });
    expectRealProgress(await progressOf(dropped.name), dropped.name);
    // The dropped file became an attachment, not something pasted into the text.
    await expect(body.textContent()).resolves.toBe('The budget and the site plan, as promised.');

    // Offline, an upload fails with the catalogue's sentence; the draft stays, Retry sends it once back online.
    await network.setOffline(true);
    const again = page.waitForEvent('filechooser');
    await box.getByRole('button', { name: 'Attach files' }).click();
    await (await again).setFiles({ name: retried.name, mimeType: retried.type, buffer: fileBytes(retried.size) });
    const failure = box.getByRole('listitem').filter({ hasText: retried.name }).getByRole('alert');
    await failure.waitFor({ timeout: 15_000 });
    await expect(failure.textContent()).resolves.toBe('The operation failed. Please try again.');
    await screenshot(page, 'writing-upload-failed');
    await network.setOffline(false);
    await box.getByRole('button', { name: `Retry uploading ${retried.name}` }).click();
    await expect.poll(async () => (await failure.count()) === 0 && (await uploaded(box, retried.name).count()) === 1, { timeout: 15_000 }).toBe(true);
    await expect(box.getByLabel('Subject').inputValue()).resolves.toBe(subject);
    await screenshot(page, 'writing-all-attached');
    await network.throttleUploads(-1);

    await box.getByRole('button', { name: 'Send' }).click();
    const toast = page.getByRole('status').filter({ hasText: /Sending…|Message sent\./ });
    await toast.getByRole('button', { name: 'Undo' }).waitFor();
    // The Undo has the focus, and no notification covers it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Undo');
    await screenshot(page, 'writing-undo-toast');
    await toast.waitFor({ state: 'detached', timeout: 15_000 });
    expect(tab.errors).toEqual([]);
  });

  test('3. Bob gets it from the sender name with every attachment: on his mail server and in his conversation view', async () => {
    // The mail server: From carries the name, and the three files are parts of the message.
    const received = await eventually(async () => {
      const client = new ImapFlow({ host: demo.mail.host, port: demo.mail.imap, secure: false, auth: { user: bob.email, pass: bob.password }, logger: false });
      await client.connect();
      try {
        const lock = await client.getMailboxLock('INBOX');
        try {
          for await (const message of client.fetch('1:*', { envelope: true, bodyStructure: true })) {
            if (message.envelope?.subject === subject) return message;
          }
          return null;
        } finally {
          lock.release();
        }
      } finally {
        await client.logout().catch(() => undefined);
      }
    }, 30_000, `"${subject}" in Bob's INBOX`);
    expect(received.envelope?.from?.[0]).toMatchObject({ name: SENDER_NAME, address: alice.email });
    const parts: MessageStructureObject[] = [];
    const walk = (node: MessageStructureObject | undefined) => {
      if (!node) return;
      if (node.disposition === 'attachment') parts.push(node);
      for (const child of node.childNodes ?? []) walk(child);
    };
    walk(received.bodyStructure);
    expect(parts.map((part) => part.dispositionParameters?.filename).sort()).toEqual([FILES.dropped.name, FILES.picked.name, FILES.retried.name].sort());

    // The conversation view, with Bob's account added in the same tab.
    await addAccount(page, bob);
    await openFolder(page, bob.email, 'Inbox');
    const row = rowWith(page, literal(subject));
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const conversation = page.getByRole('region', { name: `Conversation: ${subject}` });
    await conversation.waitFor();
    const message = conversation.getByRole('article', { name: new RegExp(`^Message from ${literal(SENDER_NAME).source}`) });
    await message.waitFor();
    const attachments = message.getByRole('region', { name: 'Attachments' });
    for (const file of [FILES.picked, FILES.dropped, FILES.retried]) {
      await attachments.getByRole('button', { name: new RegExp(`^(Preview|Download) ${literal(file.name).source} \\(`) }).first().waitFor();
    }
    await expect(attachments.getByText(/3\.0 MB/).count()).resolves.toBeGreaterThan(0);
    await message.getByTitle(new RegExp(`^Message from ${literal(SENDER_NAME).source}`)).contentFrame().getByText('The budget and the site plan, as promised.').waitFor();
    await screenshot(page, 'writing-received-by-bob');
    expect(tab.errors).toEqual([]);
  });
});

// @vitest-environment happy-dom
import '../support/happy-dom-node-name';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { DraftInput, UploadParams } from '../../../../shared/worker-mail-api';
import { Composer, type ComposerProps } from '../../../../src-ui/composer/Composer';
import { composeNew, type ComposerInitial } from '../../../../src-ui/composer/compose-initial';
import { byRole, cleanup, click, key, one, render, typeInto } from '../support/render';

const MB = 1024 * 1024;
const ACCOUNTS = [
  { accountId: 'acc1', name: 'Alice Tern', email: 'alice@tern.test' },
  { accountId: 'acc2', name: 'Alice at Kite', email: 'alice@kite.test' },
];

function setup(initial: ComposerInitial = composeNew('acc1'), over: Partial<ComposerProps> = {}) {
  const props = {
    onSave: vi.fn(async (draft: DraftInput) => ({ draftId: draft.draftId ?? 'local-7' })),
    onSend: vi.fn(async () => ({ commandId: 'cmd-1' })),
    onUndo: vi.fn(async () => true),
    onUpload: vi.fn(async (_params: UploadParams, _progress: (fraction: number) => void) => ({ attachmentId: 'up-1' })),
    onCancelUpload: vi.fn(async (_uploadId: string) => true),
    suggest: vi.fn(async () => []),
    onClose: vi.fn(),
  };
  const view = render(<Composer initial={initial} accounts={ACCOUNTS} {...props} {...over} />);
  return { view, ...props };
}

const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

const subjectBox = (view: HTMLElement) => one(view, 'textbox', 'Subject') as HTMLInputElement;

/** Writes in the body as typing does: the editor's HTML changes, then an input event. */
function writeBody(view: HTMLElement, html: string) {
  const body = one(view, 'textbox', 'Message body');
  act(() => {
    body.innerHTML = html;
    body.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('keyboard order', () => {
  test('after Subject the next tab stop is the body, then the formatting toolbar', () => {
    const { view } = setup();
    const tabStops = Array.from(view.querySelectorAll<HTMLElement>('input, button, select, textarea, [tabindex], [contenteditable]')).filter(
      (element) => element.tabIndex >= 0 && !element.hasAttribute('disabled'),
    );
    const subject = tabStops.indexOf(subjectBox(view));
    expect(tabStops[subject + 1]).toBe(one(view, 'textbox', 'Message body'));
    const toolbar = view.querySelector('[role="toolbar"][aria-label="Formatting"]')!;
    expect(toolbar.contains(tabStops[subject + 2]!)).toBe(true);
  });
});

describe('drafts', () => {
  test('save themselves 1.5 s after typing stops and show "Saved"', async () => {
    const { view, onSave } = setup();
    typeInto(subjectBox(view), 'Lunch');
    await advance(1000);
    typeInto(subjectBox(view), 'Lunch on Friday');
    await advance(1499);
    expect(onSave).not.toHaveBeenCalled();
    await advance(1);
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]?.[0]).toEqual({
      accountId: 'acc1',
      draftId: undefined,
      to: [],
      cc: [],
      bcc: [],
      subject: 'Lunch on Friday',
      html: '',
      attachmentIds: [],
      from: { name: 'Alice Tern', email: 'alice@tern.test' },
    });
    expect(view.querySelector('.tern-save-status')?.textContent).toBe('Saved');

    typeInto(subjectBox(view), 'Lunch on Friday?');
    await advance(1500);
    expect(onSave).toHaveBeenCalledTimes(2);
    expect(onSave.mock.calls[1]?.[0].draftId).toBe('local-7');
  });

  test('an untouched new message saves nothing, even when closed', async () => {
    const { view, onSave, onClose } = setup();
    await advance(5000);
    key(view.querySelector('form') as HTMLFormElement, 'Escape');
    await advance(0);
    expect(onSave).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalledWith('closed');
  });

  test('a reopened draft is restored from initial and not saved again until it changes', async () => {
    const initial: ComposerInitial = {
      ...composeNew('acc1'),
      draftId: 'd-5',
      to: [{ name: 'Bob', email: 'bob@example.com' }],
      subject: 'Restored',
      html: '<div class="tern-body"><p>Half written</p></div>',
      attachments: [{ attachmentId: 'a-1', fileName: 'notes.txt', size: 2048 }],
    };
    const { view, onSave } = setup(initial);
    expect(subjectBox(view).value).toBe('Restored');
    expect(view.querySelector('.tern-chip')?.textContent).toContain('Bob');
    expect(one(view, 'textbox', 'Message body').innerHTML).toBe('<p>Half written</p>');
    expect(view.querySelector('.tern-upload-name')?.textContent).toBe('notes.txt');
    await advance(3000);
    expect(onSave).not.toHaveBeenCalled();
    typeInto(subjectBox(view), 'Restored and edited');
    await advance(1500);
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({ draftId: 'd-5', subject: 'Restored and edited', attachmentIds: ['a-1'], to: [{ name: 'Bob', email: 'bob@example.com' }] });
    expect(onSave.mock.calls[0]?.[0].html).toBe('<div class="tern-body"><p>Half written</p></div>');
  });

  const reply: ComposerInitial = {
    mode: 'replyAll',
    accountId: 'acc1',
    to: [{ name: 'Bob', email: 'bob@example.com' }],
    cc: [{ name: 'Carol', email: 'carol@example.com' }],
    bcc: [],
    subject: 'Re: Plans',
    html: '<p><br></p><div class="tern-quote"><p>On Monday, Bob wrote:</p><blockquote type="cite">The plan.</blockquote></div>',
    inReplyToMessageId: '42',
  };

  test('a reply or forward closed without a change saves nothing: its recipients, quote and attachments are the app’s', async () => {
    const forward: ComposerInitial = {
      ...composeNew('acc1'),
      mode: 'forward',
      subject: 'Fwd: Plans',
      html: '<p><br></p><div class="tern-forward">The plan.</div>',
      pendingAttachments: [{ fileName: 'plan.pdf', size: 4096, contentType: 'application/pdf', load: async () => new Blob(['x'.repeat(4096)]) }],
    };
    for (const initial of [reply, forward]) {
      const { view, onSave, onClose, onUpload } = setup(initial);
      await advance(5000);
      if (initial.mode === 'forward') expect(onUpload).toHaveBeenCalledTimes(1); // the forwarded file arrived
      click(one(view, 'button', 'Close and keep the draft'));
      await advance(5000);
      expect(onSave).not.toHaveBeenCalled();
      expect(onClose).toHaveBeenCalledWith('closed');
      cleanup();
    }
  });

  test('a reply is saved once the person writes in it', async () => {
    const { view, onSave } = setup(reply);
    writeBody(view, '<p>Sounds good.</p>' + reply.html);
    await advance(1500);
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({ to: reply.to, cc: reply.cc, subject: 'Re: Plans', inReplyToMessageId: '42' });
    expect(onSave.mock.calls[0]?.[0].html).toContain('Sounds good.');
  });

  test('Escape closes the composer after saving what was typed', async () => {
    const { view, onSave, onClose } = setup();
    typeInto(subjectBox(view), 'Quick note');
    key(subjectBox(view), 'Escape');
    await advance(0);
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave.mock.calls[0]?.[0].subject).toBe('Quick note');
    expect(onClose).toHaveBeenCalledWith('closed');
  });
});

describe('send with undo', () => {
  const ready: ComposerInitial = { ...composeNew('acc1'), to: [{ name: 'Bob', email: 'bob@example.com' }], subject: 'Hi' };

  test('Send saves, sends with a 5 s delay, shows Undo, and closes when the window ends', async () => {
    const { view, onSave, onSend, onClose } = setup(ready);
    click(one(view, 'button', /^Send$/));
    await advance(0);
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSend).toHaveBeenCalledWith({ accountId: 'acc1', draftId: 'local-7', delayMs: 5000, subject: 'Hi' });
    const toast = one(view, 'status');
    expect(toast.textContent).toContain('Sending…');
    expect(one(view, 'button', 'Undo')).toBe(document.activeElement);
    await advance(4999);
    expect(onClose).not.toHaveBeenCalled();
    await advance(1);
    expect(onClose).toHaveBeenCalledWith('sent');
  });

  test('Undo stops the send and brings the message back', async () => {
    const { view, onUndo, onClose } = setup(ready);
    click(one(view, 'button', /^Send$/));
    await advance(0);
    click(one(view, 'button', 'Undo'));
    await advance(0);
    expect(onUndo).toHaveBeenCalledWith('cmd-1');
    expect(subjectBox(view).value).toBe('Hi');
    expect(view.textContent).toContain('Sending undone');
    await advance(10_000);
    expect(onClose).not.toHaveBeenCalled();
  });

  test('Undo brings back the whole message — body, Cc, Bcc, attachments, From — and sending again sends all of it', async () => {
    const initial: ComposerInitial = {
      ...composeNew('acc1'),
      to: [{ name: 'Bob', email: 'bob@example.com' }],
      cc: [{ name: 'Carol', email: 'carol@example.com' }],
      bcc: [{ name: '', email: 'dave@example.com' }],
      subject: 'Plans',
      attachments: [{ attachmentId: 'a'.repeat(32), fileName: 'plan.pdf', size: 4096 }],
    };
    const { view, onSave, onSend } = setup(initial);
    act(() => {
      (one(view, 'combobox', 'From') as HTMLSelectElement).value = 'acc2';
      one(view, 'combobox', 'From').dispatchEvent(new Event('change', { bubbles: true }));
    });
    writeBody(view, '<p>Body B survives undo</p>');
    click(one(view, 'button', /^Send$/));
    await advance(0);
    const sent = onSave.mock.calls.at(-1)![0];
    expect(sent.html).toContain('Body B survives undo');
    click(one(view, 'button', 'Undo'));
    await advance(0);

    expect(one(view, 'textbox', 'Message body').innerHTML).toBe('<p>Body B survives undo</p>');
    expect((one(view, 'combobox', 'From') as HTMLSelectElement).value).toBe('acc2');
    expect(view.querySelector('[aria-label="Cc recipients"]')?.textContent).toContain('Carol');
    expect(view.querySelector('[aria-label="Bcc recipients"]')?.textContent).toContain('dave@example.com');
    expect(view.querySelector('.tern-upload-name')?.textContent).toBe('plan.pdf');

    // Nothing changed since: Send again sends the draft as saved, body and all.
    click(one(view, 'button', /^Send$/));
    await advance(0);
    expect(onSend).toHaveBeenCalledTimes(2);
    const last = onSave.mock.calls.at(-1)![0];
    expect(last).toMatchObject({ accountId: 'acc2', subject: 'Plans', attachmentIds: ['a'.repeat(32)] });
    expect(last.html).toContain('Body B survives undo');
    expect(last.bcc).toEqual([{ name: '', email: 'dave@example.com' }]);
  });

  test('Ctrl+Enter sends from anywhere in the composer', async () => {
    const { view, onSend } = setup(ready);
    key(subjectBox(view), 'Enter', { ctrlKey: true });
    await advance(0);
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  test('no recipient, or an invalid one, stops the send with a message', async () => {
    const { view, onSend } = setup({ ...composeNew('acc1'), subject: 'x' });
    click(one(view, 'button', /^Send$/));
    await advance(0);
    expect(one(view, 'alert').textContent).toBe('Add at least one recipient.');
    const to = one(view, 'combobox', 'To') as HTMLInputElement;
    typeInto(to, 'bob@example');
    click(one(view, 'button', /^Send$/));
    await advance(0);
    expect(byRole(view, 'alert').map((alert) => alert.textContent).join(' ')).toContain('This email address is not valid. Fix or remove “bob@example”.');
    expect(onSend).not.toHaveBeenCalled();
  });
});

describe('attachments', () => {
  const fileInput = (view: HTMLElement) => view.querySelector('input[type="file"]') as HTMLInputElement;
  const pick = (view: HTMLElement, files: File[]) => {
    const input = fileInput(view);
    Object.defineProperty(input, 'files', { configurable: true, value: files });
    act(() => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
  };
  const file = (name: string, size: number) => {
    const made = new File(['x'], name, { type: 'application/octet-stream' });
    Object.defineProperty(made, 'size', { value: size });
    return made;
  };

  /** An upload the test drives: progress, then success or failure. */
  const heldUploads = () => {
    const held: { params: UploadParams; report: (fraction: number) => void; finish: (value: { attachmentId: string }) => void; fail: (error: unknown) => void }[] = [];
    const onUpload = vi.fn(
      (params: UploadParams, report: (fraction: number) => void) =>
        new Promise<{ attachmentId: string }>((finish, fail) => {
          held.push({ params, report, finish, fail });
        }),
    );
    return { held, onUpload };
  };

  test('a file over 25 MB is refused with the catalogue sentence and its size in the spec units', async () => {
    const { view, onUpload } = setup();
    pick(view, [file('holiday.mov', 31.2 * MB)]);
    expect(onUpload).not.toHaveBeenCalled();
    expect(one(view, 'alert').textContent).toBe('“holiday.mov” (31.2 MB): This file is too large or empty. Attachments can be at most 25.0 MB each.');
    click(one(view, 'button', 'Remove holiday.mov'));
    expect(byRole(view, 'alert')).toHaveLength(0);
  });

  test('uploads show per-file progress (aria-valuenow in percent) up to 100 %, then join the draft', async () => {
    const { held, onUpload } = heldUploads();
    const { view, onSave } = setup(composeNew('acc1'), { onUpload });
    pick(view, [file('Q3: plan.pdf', 2 * MB)]);
    expect(onUpload.mock.calls[0]?.[0]).toMatchObject({ accountId: 'acc1', fileName: 'Q3_ plan.pdf', uploadId: expect.any(String) });
    expect(view.textContent).toContain('Attached as “Q3_ plan.pdf”');
    const bar = () => one(view, 'progressbar', 'Uploading Q3_ plan.pdf');
    expect(bar().getAttribute('aria-valuenow')).toBe('0');
    act(() => held[0]!.report(0.5));
    expect(bar().getAttribute('aria-valuenow')).toBe('50');
    expect(bar().getAttribute('aria-valuetext')).toBe('50%');
    expect(view.textContent).toContain('1.0 MB of 2.0 MB');
    // Every byte sent, the gateway's answer not in yet.
    act(() => held[0]!.report(1));
    expect(bar().getAttribute('aria-valuenow')).toBe('100');
    expect(view.textContent).toContain('2.0 MB, finishing…');
    await act(async () => held[0]!.finish({ attachmentId: 'up-9' }));
    expect(byRole(view, 'progressbar')).toHaveLength(0);
    await advance(1500);
    expect(onSave.mock.calls.at(-1)?.[0].attachmentIds).toEqual(['up-9']);
  });

  test('an upload can be cancelled while it goes: the engine is told, the file leaves, its late answer is ignored', async () => {
    const { held, onUpload } = heldUploads();
    const { view, onCancelUpload, onSave } = setup(composeNew('acc1'), { onUpload });
    typeInto(subjectBox(view), 'Plans');
    pick(view, [file('big.zip', 8 * MB)]);
    act(() => held[0]!.report(0.3));
    click(one(view, 'button', 'Cancel uploading big.zip'));
    expect(onCancelUpload).toHaveBeenCalledWith(held[0]!.params.uploadId);
    expect(byRole(view, 'progressbar')).toHaveLength(0);
    expect(view.textContent).not.toContain('big.zip');
    await act(async () => held[0]!.finish({ attachmentId: 'late' }));
    expect(view.textContent).not.toContain('big.zip');
    await advance(1500);
    expect(onSave.mock.calls.at(-1)?.[0]).toMatchObject({ subject: 'Plans', attachmentIds: [] });
  });

  test('a failed upload says why (catalogue), keeps the draft, and can be retried or removed', async () => {
    const { held, onUpload } = heldUploads();
    const { view, onSave, onSend } = setup({ ...composeNew('acc1'), to: [{ name: 'Bob', email: 'bob@example.com' }] }, { onUpload });
    typeInto(subjectBox(view), 'Report');
    pick(view, [file('report.pdf', 3 * MB)]);
    await act(async () => held[0]!.fail({ name: 'InvalidFileSize', message: 'This file is too large or empty.' }));
    expect(one(view, 'alert').textContent).toBe('This file is too large or empty.');
    await advance(1500);
    expect(onSave.mock.calls.at(-1)?.[0]).toMatchObject({ subject: 'Report', attachmentIds: [] });
    // Send waits for the person to decide.
    click(one(view, 'button', /^Send$/));
    await advance(0);
    expect(view.textContent).toContain('Some attachments did not upload. Retry or remove them first.');
    expect(onSend).not.toHaveBeenCalled();

    click(one(view, 'button', 'Retry uploading report.pdf'));
    expect(onUpload).toHaveBeenCalledTimes(2);
    expect(held[1]!.params.uploadId).not.toBe(held[0]!.params.uploadId);
    await act(async () => held[1]!.fail(new Error('offline')));
    click(one(view, 'button', 'Remove report.pdf'));
    expect(view.textContent).not.toContain('report.pdf');
    expect(subjectBox(view).value).toBe('Report');
  });

  test('closing while an upload goes is held back with the reason', async () => {
    const { onUpload } = heldUploads();
    const { view, onClose } = setup(composeNew('acc1'), { onUpload });
    pick(view, [file('slides.pdf', 4 * MB)]);
    click(one(view, 'button', 'Close and keep the draft'));
    await advance(0);
    expect(onClose).not.toHaveBeenCalled();
    expect(one(view, 'alert').textContent).toContain('still uploading');
  });

  test('files dropped on the body are attached too', async () => {
    const { view, onUpload } = setup();
    const body = one(view, 'textbox', 'Message body');
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { types: ['Files'], files: [file('scan.png', 900_000)] } });
    await act(async () => {
      body.dispatchEvent(drop);
    });
    expect(onUpload).toHaveBeenCalledTimes(1);
    expect(onUpload.mock.calls[0]?.[0]).toMatchObject({ fileName: 'scan.png' });
    expect(drop.defaultPrevented).toBe(true);
  });

  test('files dropped on the composer are attached', async () => {
    const { view, onUpload } = setup();
    const form = view.querySelector('form') as HTMLFormElement;
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { types: ['Files'], files: [file('photo.jpg', 300_000)] } });
    await act(async () => {
      form.dispatchEvent(drop);
    });
    expect(onUpload).toHaveBeenCalledTimes(1);
    expect(drop.defaultPrevented).toBe(true);
  });
});

test('every control has an accessible name', () => {
  const { view } = setup();
  for (const element of Array.from(view.querySelectorAll<HTMLElement>('button, input:not([type="file"]), select, [role="textbox"], [role="combobox"]'))) {
    const name = element.getAttribute('aria-label') ?? (element.id ? view.querySelector(`label[for="${element.id}"]`)?.textContent : null) ?? element.textContent;
    expect(name?.trim(), element.outerHTML).toBeTruthy();
  }
  expect(one(view, 'combobox', 'From').localName).toBe('select');
  expect(one(view, 'toolbar', 'Formatting')).toBeTruthy();
});

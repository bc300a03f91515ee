import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { DraftAutosave, type SaveStatus } from '../../../../src-ui/composer/draft-autosave';
import type { DraftInput } from '../../../../shared/worker-mail-api';

const draft = (subject: string): DraftInput => ({ accountId: 'acc1', to: [], cc: [], bcc: [], subject, html: '', attachmentIds: [] });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setup(options: { draftId?: string } = {}) {
  const statuses: SaveStatus['status'][] = [];
  const save = vi.fn(async (input: DraftInput) => ({ draftId: input.draftId ?? 'local-1' }));
  const autosave = new DraftAutosave({ delayMs: 1500, save, onStatus: (status) => statuses.push(status.status), ...options });
  return { autosave, save, statuses };
}

test('a burst of changes saves once, 1.5 s after the last one', async () => {
  const { autosave, save, statuses } = setup();
  autosave.schedule(() => draft('H'));
  await vi.advanceTimersByTimeAsync(1000);
  autosave.schedule(() => draft('He'));
  await vi.advanceTimersByTimeAsync(1000);
  autosave.schedule(() => draft('Hello'));
  await vi.advanceTimersByTimeAsync(1499);
  expect(save).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  expect(save).toHaveBeenCalledTimes(1);
  expect(save.mock.calls[0]?.[0]).toMatchObject({ subject: 'Hello', draftId: undefined });
  expect(statuses).toEqual(['saving', 'saved']);
});

test('later saves carry the id the first one returned; unchanged content is not saved again', async () => {
  const { autosave, save } = setup();
  autosave.schedule(() => draft('One'));
  await vi.advanceTimersByTimeAsync(1500);
  autosave.schedule(() => draft('Two'));
  await vi.advanceTimersByTimeAsync(1500);
  autosave.schedule(() => draft('Two'));
  await vi.advanceTimersByTimeAsync(1500);
  expect(save).toHaveBeenCalledTimes(2);
  expect(save.mock.calls[1]?.[0]).toMatchObject({ subject: 'Two', draftId: 'local-1' });
  expect(autosave.draftId).toBe('local-1');
});

test('saves never overlap: a change during a slow save is saved after it, with its id', async () => {
  let release: (value: { draftId: string }) => void = () => undefined;
  const save = vi.fn((input: DraftInput) => (input.draftId ? Promise.resolve({ draftId: input.draftId }) : new Promise<{ draftId: string }>((resolve) => (release = resolve))));
  const autosave = new DraftAutosave({ delayMs: 1500, save, onStatus: () => undefined });
  autosave.schedule(() => draft('A'));
  await vi.advanceTimersByTimeAsync(1500);
  autosave.schedule(() => draft('B'));
  await vi.advanceTimersByTimeAsync(1500);
  expect(save).toHaveBeenCalledTimes(1);
  release({ draftId: 'd-9' });
  await vi.advanceTimersByTimeAsync(0);
  expect(save).toHaveBeenCalledTimes(2);
  expect(save.mock.calls[1]?.[0]).toMatchObject({ subject: 'B', draftId: 'd-9' });
});

test('flush saves at once and resolves with the id; nothing to save resolves with the known id', async () => {
  const { autosave, save } = setup({ draftId: 'd-1' });
  autosave.markSaved(draft('Restored'));
  await expect(autosave.flush(() => draft('Restored'))).resolves.toBe('d-1');
  expect(save).not.toHaveBeenCalled();
  autosave.schedule(() => draft('Edited'));
  await expect(autosave.flush()).resolves.toBe('d-1');
  expect(save).toHaveBeenCalledTimes(1);
});

test('a producer answering null (nothing written yet) saves nothing', async () => {
  const { autosave, save } = setup();
  autosave.schedule(() => null);
  await vi.advanceTimersByTimeAsync(5000);
  expect(save).not.toHaveBeenCalled();
});

test('a failed save reports it, and flush rejects', async () => {
  const save = vi.fn(async () => {
    throw new Error('Your mailbox is full.');
  });
  const statuses: SaveStatus[] = [];
  const autosave = new DraftAutosave({ delayMs: 1500, save, onStatus: (status) => statuses.push(status) });
  await expect(autosave.flush(() => draft('x'))).rejects.toThrow('mailbox is full');
  expect(statuses.at(-1)).toEqual({ status: 'failed', message: 'Your mailbox is full.' });
});

test('dispose runs a save that was still waiting', async () => {
  const { autosave, save } = setup();
  autosave.schedule(() => draft('Typed then closed'));
  autosave.dispose();
  await vi.advanceTimersByTimeAsync(0);
  expect(save).toHaveBeenCalledTimes(1);
});

test('dispose reads the draft at once, while the composer is still there (an unmounted editor reads as empty)', async () => {
  const { autosave, save } = setup();
  let editorHtml = '<p>Typed just before leaving</p>';
  autosave.schedule(() => ({ ...draft('Left behind'), html: editorHtml }));
  autosave.dispose();
  editorHtml = ''; // the editor is gone a moment later
  await vi.advanceTimersByTimeAsync(0);
  expect(save).toHaveBeenCalledTimes(1);
  expect(save.mock.calls[0]?.[0].html).toBe('<p>Typed just before leaving</p>');
});

describe('revisions and conflicts', () => {
  const refused = () => Object.assign(new Error('This draft was changed elsewhere.'), { name: 'InvalidDraftVersion', detail: { reason: 'edited' } });

  test('each save names the revision the last one made (a reopened draft: the one it opened with)', async () => {
    let revision = 4;
    const save = vi.fn(async (input: DraftInput) => ({ draftId: input.draftId ?? 'local-1', revision: ++revision, commandId: `c-${revision}` }));
    const statuses: SaveStatus[] = [];
    const autosave = new DraftAutosave({ delayMs: 1500, save, onStatus: (status) => statuses.push(status), draftId: 'd-1', revision: 4 });
    await autosave.flush(() => draft('A'));
    await autosave.flush(() => draft('B'));
    expect(save.mock.calls.map(([input]) => input.baseRevision)).toEqual([4, 5]);
    expect(statuses.at(-1)).toMatchObject({ status: 'saved', commandId: 'c-6' });
  });

  test('a refused save is a conflict: nothing more is saved over the other version, a send is refused, Keep both saves it as a new draft', async () => {
    const save = vi.fn(async (input: DraftInput) => {
      if (input.draftId === 'd-1') throw refused();
      return { draftId: 'local-new', revision: 1 };
    });
    const statuses: SaveStatus[] = [];
    const autosave = new DraftAutosave({ delayMs: 1500, save, onStatus: (status) => statuses.push(status), draftId: 'd-1', revision: 2 });
    await expect(autosave.flush(() => draft('Mine'))).rejects.toThrow();
    expect(statuses.at(-1)).toEqual({ status: 'conflict', conflict: { reason: 'edited' } });
    expect(autosave.conflict).toEqual({ reason: 'edited' });

    autosave.schedule(() => draft('Mine, more'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(save).toHaveBeenCalledTimes(1);
    await expect(autosave.flush()).rejects.toMatchObject({ name: 'InvalidDraftVersion' });

    await autosave.keepBoth();
    expect(save).toHaveBeenCalledTimes(2);
    expect(save.mock.calls[1]?.[0]).toMatchObject({ subject: 'Mine, more', draftId: undefined });
    expect(save.mock.calls[1]?.[0].baseRevision).toBeUndefined();
    expect(autosave.draftId).toBe('local-new');
    expect(autosave.conflict).toBeNull();
  });

  test('a composer that goes away still in conflict keeps its text as a draft of its own', async () => {
    const save = vi.fn(async (input: DraftInput) => {
      if (input.draftId === 'd-1') throw refused();
      return { draftId: 'local-new', revision: 1 };
    });
    const autosave = new DraftAutosave({ delayMs: 1500, save, onStatus: () => undefined, draftId: 'd-1', revision: 2 });
    await autosave.flush(() => draft('Mine')).catch(() => undefined);
    autosave.schedule(() => draft('Mine, typed on'));
    autosave.dispose();
    await vi.advanceTimersByTimeAsync(0);
    expect(save).toHaveBeenCalledTimes(2);
    expect(save.mock.calls[1]?.[0]).toMatchObject({ subject: 'Mine, typed on', draftId: undefined });
  });

  test('a conflict the engine reports later with the copy it kept: Keep both goes on with that copy', async () => {
    const save = vi.fn(async (input: DraftInput) => ({ draftId: input.draftId ?? 'x', revision: 1 }));
    const autosave = new DraftAutosave({ delayMs: 1500, save, onStatus: () => undefined, draftId: 'd-1', revision: 2 });
    autosave.markConflict({ reason: 'edited', keptAs: 'local-kept' });
    autosave.schedule(() => draft('Later'));
    await autosave.keepBoth();
    expect(save.mock.calls[0]?.[0]).toMatchObject({ draftId: 'local-kept', baseRevision: 0, subject: 'Later' });
  });
});

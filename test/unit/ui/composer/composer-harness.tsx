/** A Composer rendered with mock callbacks (every one a vi.fn), and fake time moved on inside act. */
import { act } from 'react';
import { vi } from 'vitest';
import type { DraftInput } from '../../../../shared/worker-mail-api';
import { Composer } from '../../../../src-ui/composer/Composer';
import type { ComposerInitial } from '../../../../src-ui/composer/compose-initial';
import { render } from '../support/render';

const ACCOUNTS = [{ accountId: 'acc1', name: 'Alice Tern', email: 'alice@tern.test' }];

export function renderComposer(initial: ComposerInitial) {
  const props = {
    onSave: vi.fn(async (draft: DraftInput) => ({ draftId: draft.draftId ?? 'local-7' })),
    onSend: vi.fn(async () => ({ commandId: 'cmd-1' })),
    onUndo: vi.fn(async () => true),
    onUpload: vi.fn(async () => ({ attachmentId: 'up-1' })),
    suggest: vi.fn(async () => []),
    onClose: vi.fn(),
    onDiscard: vi.fn(),
  };
  const view = render(<Composer initial={initial} accounts={ACCOUNTS} {...props} />);
  return { view, ...props };
}

export const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

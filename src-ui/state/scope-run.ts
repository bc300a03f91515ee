/**
 * A command on every thread of the list shown ("Select all N conversations in Inbox", then
 * a toolbar button or a key). The engine finds the threads and records the command in
 * batches (shared/worker-mail-api.ts runOnScope); this tab shows the change on its loaded
 * rows at once, a progress bar while batches are recorded, then one confirmation with the
 * count (with Undo for moves, as for any move). Failures of single batches come back as
 * command outcomes, as for any command.
 */
import type { createStore } from 'jotai';
import { TernError } from '../../shared/errors';
import type { ListScope, MailCommand, ScopeCommand } from '../../shared/worker-mail-api';
import type { RowEdit } from './thread-list/local-edits';
import { allInScopeAtom, scopeRunAtom, selectionAnchorAtom, selectionAtom, threadListAtom } from './atoms';
import type { UiEngine } from './engine-port';
import type { LocalEditsKeeper } from './local-edits';
import type { ThreadCommand } from './mail-actions';
import type { WorkerBridge } from './engine-feeds';

type Store = ReturnType<typeof createStore>;

const COUNT_FORMAT = new Intl.NumberFormat();
export const conversations = (count: number) => `${COUNT_FORMAT.format(count)} conversation${count === 1 ? '' : 's'}`;

/** What the progress bar says while the command runs ("Archiving 500 of 1,234 conversations"). */
export function scopeVerb(command: ThreadCommand): string {
  switch (command.kind) {
    case 'archive':
      return 'Archiving';
    case 'trash':
      return 'Moving to Trash';
    case 'spam':
      return 'Reporting as spam';
    case 'notspam':
      return 'Moving to Inbox';
    case 'delete':
      return 'Deleting forever';
    case 'move':
      return command.folderName ? `Moving to ${command.folderName}` : 'Moving';
    case 'markRead':
      return command.read ? 'Marking as read' : 'Marking as unread';
    case 'star':
      return command.starred ? 'Starring' : 'Removing stars from';
  }
}

/** What the confirmation says once every batch is recorded ("1,234 conversations archived."). */
export function scopeDone(command: ThreadCommand, count: number): string {
  const what = conversations(count);
  switch (command.kind) {
    case 'archive':
      return `${what} archived.`;
    case 'trash':
      return `${what} moved to Trash.`;
    case 'spam':
      return `${what} reported as spam.`;
    case 'notspam':
      return `${what} marked as not spam and moved to Inbox.`;
    case 'delete':
      return `${what} deleted forever.`;
    case 'move':
      return `${what} moved${command.folderName ? ` to ${command.folderName}` : ''}.`;
    case 'markRead':
      return `${what} marked as ${command.read ? 'read' : 'unread'}.`;
    case 'star':
      return `${what} ${command.starred ? 'starred' : 'unstarred'}.`;
  }
}

export type ScopeRunner = (command: ThreadCommand, scope: ListScope, edit: RowEdit | null) => Promise<void>;

export function createScopeRunner(params: {
  engine: UiEngine;
  store: Store;
  bridge: WorkerBridge;
  localEdits: LocalEditsKeeper;
  /** The confirmation toast (mail-actions.ts): with Undo for moves, which runs `inverses` after `putBack`. */
  confirm: (command: ThreadCommand, message: string, inverses: Promise<readonly MailCommand[]>, putBack: () => void) => void;
}): ScopeRunner {
  const { engine, store, bridge, localEdits } = params;
  return async (command, scope, edit) => {
    // The selection is spent (Gmail clears it): the rows it named are what the command changes.
    store.set(selectionAtom, new Map());
    store.set(selectionAnchorAtom, null);
    store.set(allInScopeAtom, null);
    const loaded = store.get(threadListAtom).held?.rows.map((row) => row.key) ?? [];
    // The loaded rows show the change in this frame; the rest are not on screen.
    const settle = edit && loaded.length > 0 ? localEdits.begin(loaded, edit) : () => undefined;
    const verb = scopeVerb(command);
    store.set(scopeRunAtom, { verb, done: 0, total: store.get(threadListAtom).held?.total ?? 0 });
    try {
      const scopeCommand: ScopeCommand = command.kind === 'move' ? { kind: 'move', folderId: command.folderId } : command;
      const run = await engine.commands.runOnScope({ scope, command: scopeCommand }, (progress) => store.set(scopeRunAtom, { verb, ...progress }));
      settle(true);
      for (const commandId of run.commandIds) bridge.trackCommand(commandId);
      params.confirm(command, scopeDone(command, run.done), Promise.resolve(run.undo), () => settle(false));
    } catch (error) {
      settle(false);
      bridge.toast({ tone: 'error', message: TernError.from(error).message });
    } finally {
      store.set(scopeRunAtom, null);
    }
  };
}

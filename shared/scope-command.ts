/**
 * A thread command without its threads (ScopeCommand, or the UI's ThreadCommand, which
 * adds only a folder name for its toast) made into the MailCommand for some threads of
 * one account. The tab (its selection) and the engine (runOnScope's batches) both do it.
 */
import type { MailCommand, ScopeCommand } from './worker-mail-api';

export function commandForThreads(command: ScopeCommand, accountId: string, threadIds: readonly string[]): MailCommand {
  switch (command.kind) {
    case 'move':
      return { kind: 'move', accountId, threadIds, folderId: command.folderId };
    case 'markRead':
      return { kind: 'markRead', accountId, threadIds, read: command.read };
    case 'star':
      return { kind: 'star', accountId, threadIds, starred: command.starred };
    case 'label':
      return { kind: 'label', accountId, threadIds, keyword: command.keyword, add: command.add };
    default:
      return { kind: command.kind, accountId, threadIds };
  }
}

/**
 * Drafts open in the composer, as in Gmail: a row of the Drafts folder that is a draft on
 * its own (a new message being written) opens the composer with it at once, not a
 * conversation of one message offering Reply and Forward on the user's own draft. A draft
 * reply inside a conversation keeps that conversation: its row opens the thread, where the
 * draft is marked and has its Edit draft button (ReadingPane).
 */
import type { FolderView, MessageView, ThreadRow } from '../../shared/worker-mail-api';
import { TernError } from '../../shared/errors';
import { composerInitialOfDraft } from '../composer/draft-initial';
import type { MailActions } from '../state/mail-actions';
import { errorPhrase } from '../../shared/strings';

/** A row of Drafts that holds one message only: that message is the draft itself. */
export const isLoneDraftRow = (row: Pick<ThreadRow, 'messageCount'>, specialUse: FolderView['specialUse']): boolean =>
  specialUse === 'drafts' && row.messageCount === 1;

/** The draft as the gateway keeps it (Bcc and attachments too), under the id it is saved and sent by, in the composer. */
export function editDraft(actions: MailActions, message: Pick<MessageView, 'accountId' | 'id'>): Promise<void> {
  return actions.openDraft({ accountId: message.accountId, messageId: message.id }).then(
    (draft) => actions.openComposer(composerInitialOfDraft(draft)),
    (error: unknown) => void actions.toast({ tone: 'error', title: { id: 'app.couldNotOpenDraft' }, message: errorPhrase(TernError.from(error)) }),
  );
}

/**
 * Opens a lone draft's row in the composer. Resolves false when the row's message is no
 * draft after all (a mail moved into Drafts by hand): the caller opens the thread instead.
 */
export async function openDraftRow(actions: MailActions, row: Pick<ThreadRow, 'accountId' | 'threadId'>): Promise<boolean> {
  let thread;
  try {
    thread = await actions.loadThread({ accountId: row.accountId, threadId: row.threadId });
  } catch {
    return false; // the thread view says why (gone, offline)
  }
  const draft = thread.messages.length === 1 ? thread.messages.find((message) => message.draft) : undefined;
  if (!draft) return false;
  await editDraft(actions, draft);
  return true;
}

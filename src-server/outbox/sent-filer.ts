import { leftLate, SENT_LATE_KEYWORD } from '../../shared/send-time';
import type { FolderRoles } from '../actions/folder-roles';
import type { MailboxAccess } from '../actions/mailbox-access';
import type { DraftService } from '../drafts/draft-service';
import type { DraftStore } from '../drafts/draft-store';
import { appendMessage, uidsWithMessageId } from '../drafts/mailbox-search';
import type { UploadStore } from '../drafts/upload-store';
import type { Materializer } from '../mirror/materialize';
import type { OutboxRow } from './outbox-store';
import type { SentFiling } from './outbox-worker';

export interface SentFilerDeps {
  readonly access: MailboxAccess;
  readonly roles: FolderRoles;
  readonly drafts: Pick<DraftService, 'deleteCopies'>;
  readonly draftStore: DraftStore;
  readonly uploads: UploadStore;
  readonly materializer: Pick<Materializer, 'messageRow'>;
  readonly onError?: (accountId: number, error: unknown) => void;
}

/**
 * What follows an accepted send, each step safe to repeat: one copy in Sent (skipped when
 * the server already filed one — Gmail and others do); then the replied message flagged
 * \Answered, the draft's copies removed from Drafts, the uploads released, and the mirror
 * syncs those folders so the change reaches clients as transactions.
 */
export class SentFiler implements SentFiling {
  constructor(private readonly deps: SentFilerDeps) {}

  async isInSent(row: OutboxRow): Promise<boolean> {
    const path = await this.deps.roles.pathOf(row.accountId, 'sent');
    return this.deps.access.withFolder(row.accountId, path, async (client) => (await uidsWithMessageId(client, row.messageIdHeader)).length > 0);
  }

  fileCopy(row: OutboxRow): Promise<void> {
    return this.fileCopies([row]);
  }

  /**
   * Each copy checked for and appended in turn, each in its own turn on the account's
   * connection: the mirror's sync (new mail in INBOX) may go between two of them.
   */
  async fileCopies(rows: readonly OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    const accountId = rows[0]!.accountId;
    const sentPath = await this.deps.roles.pathOf(accountId, 'sent');
    for (const row of rows) {
      // A scheduled message that left late (the gateway was down at its time) says so on its Sent copy.
      const late = leftLate(row) ? [SENT_LATE_KEYWORD] : [];
      await this.deps.access.withFolder(accountId, sentPath, async (client) => {
        const filed = await uidsWithMessageId(client, row.messageIdHeader);
        if (filed.length > 0) {
          // The server filed it itself (Gmail and others do): the mark goes on its copy.
          if (late.length > 0) await client.messageFlagsAdd(filed.join(','), late, { uid: true });
          return;
        }
        // The Sent copy keeps the Bcc header (sentCopy) when there was one: the sender may see whom they hid.
        await appendMessage({ client, path: sentPath, raw: row.sentCopy ?? row.raw, flags: ['\\Seen', ...late], messageIdHeader: row.messageIdHeader });
      });
    }
  }

  async finish(row: OutboxRow, withCopy: boolean, settle = true): Promise<void> {
    const { access, roles, draftStore } = this.deps;
    const accountId = row.accountId;
    const touched: string[] = withCopy ? [await roles.pathOf(accountId, 'sent')] : [];

    const answeredIn = await this.flagParentAnswered(row);
    if (answeredIn) touched.push(answeredIn);

    if (row.draftId !== null) {
      const draft = await draftStore.get(accountId, row.draftId);
      if (draft && draft.state !== 'deleted') {
        const draftsPath = draft.folderPath ?? (await roles.pathOf(accountId, 'drafts'));
        // Without a Sent copy the draft's copy is the only one the mailbox has of what was sent: it stays.
        if (withCopy) {
          await this.deps.drafts.deleteCopies(accountId, draftsPath, draft.messageIdHeader);
          touched.push(draftsPath);
        }
        await draftStore.transition(draft.id, ['open', 'sending'], 'sent');
      }
    }
    await this.deps.uploads.release(accountId, row.uploadIds);
    // The folders' sync was scheduled by each IMAP step; waiting for it can be left to the last of a batch.
    if (settle) await access.settle(accountId, touched);
  }

  /** Best effort: the parent may have been deleted meanwhile, which must not hold the send up. */
  private async flagParentAnswered(row: OutboxRow): Promise<string | null> {
    if (row.parentId === null) return null;
    const parent = await this.deps.materializer.messageRow(row.accountId, row.parentId);
    const folder = parent && (await this.deps.roles.byId(row.accountId, parent.folder_id));
    if (!parent || !folder) return null;
    try {
      await this.deps.access.withFolder(row.accountId, folder.path, (client) => client.messageFlagsAdd(String(parent.uid), ['\\Answered'], { uid: true }));
      return folder.path;
    } catch (error) {
      this.deps.onError?.(row.accountId, error);
      return null;
    }
  }
}

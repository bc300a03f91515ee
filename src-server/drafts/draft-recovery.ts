import type { FolderRoles } from '../actions/folder-roles';
import type { MailboxAccess } from '../actions/mailbox-access';
import type { DraftRecord, DraftStore } from './draft-store';
import type { DraftLocks } from './draft-locks';
import { appendMessage, deleteByMessageId, uidsWithMessageId } from './mailbox-search';

export interface DraftRecoveryDeps {
  readonly store: DraftStore;
  readonly roles: FolderRoles;
  readonly access: MailboxAccess;
  /** The drafts' save locks: a recovery never runs beside a save of the same draft, on any node. */
  readonly locks: Pick<DraftLocks, 'tryRun'>;
  /** The draft's message as SQLite holds it, to APPEND again when no copy reached the server. */
  readonly render: (draft: DraftRecord) => Promise<Buffer>;
  readonly flags: readonly string[];
}

/**
 * Puts right a draft save that did not finish (the gateway was killed, or IMAP failed between
 * APPEND and the delete of the copy it replaces), so the Drafts folder holds exactly one copy
 * of the draft, none lost. Every copy carries the draft's Message-ID, recorded before the
 * APPEND, so they are all found by it. SQLite's record is the truth of the last finished save:
 *
 * - its copy (`uid`) is there → it stays; every other copy goes (a newer APPEND whose save was
 *   never recorded: the client did not hear back and saves again);
 * - a new draft (no `uid` yet) with copies → its newest copy stays (made from the same record);
 *   so does a draft being sent (it is sealed; its copies go when it is sent);
 * - no copy at all (killed before the APPEND, or the recorded copy vanished) → APPENDed again
 *   from the record (unless the draft is being sent: the outbox holds it);
 * - a deleted draft → every copy goes; a sent one keeps what its send left.
 */
export class DraftRecovery {
  constructor(private readonly deps: DraftRecoveryDeps) {}

  /** Every unfinished save; one that cannot be resolved now (IMAP down, or its save still running) stays for the next pass. */
  async recoverAll(onError: (accountId: number, error: unknown) => void): Promise<number> {
    let resolved = 0;
    for (const draft of await this.deps.store.savesUnderWay()) {
      try {
        if (await this.recover(draft.accountId, draft.id)) resolved++;
      } catch (error) {
        onError(draft.accountId, error);
      }
    }
    return resolved;
  }

  /** False when a save of the draft holds its lock (it is not unfinished: it is under way). */
  async recover(accountId: number, draftId: number): Promise<boolean> {
    const done = await this.deps.locks.tryRun(draftId, async () => {
      const { store, roles, access } = this.deps;
      const draft = await store.get(accountId, draftId);
      if (!draft || draft.savingSince === null) return true; // a save finished meanwhile
      if (draft.state === 'sent') {
        await store.endSave(draft.id);
        return true;
      }
      const path = draft.folderPath ?? (await roles.pathOf(accountId, 'drafts'));
      const keep = await access.withFolder(accountId, path, async (client) => {
        const found = await uidsWithMessageId(client, draft.messageIdHeader);
        let keepUid: number | null = null;
        if (draft.state !== 'deleted') {
          if (draft.uid !== null && found.includes(draft.uid)) keepUid = draft.uid;
          // A new draft's copies are made from the record; a draft being sent keeps one, whichever.
          else if ((draft.uid === null || draft.state === 'sending') && found.length > 0) keepUid = Math.max(...found);
          // A draft being sent is not put back: its message is in the outbox, and its copies go when it is sent.
          else if (draft.state === 'open') keepUid = await appendMessage({ client, path, raw: await this.deps.render(draft), flags: [...this.deps.flags], messageIdHeader: draft.messageIdHeader });
        }
        await deleteByMessageId(client, draft.messageIdHeader, keepUid, draft.supersededUid === null ? [] : [draft.supersededUid]);
        return keepUid;
      });
      await store.endSave(draft.id, draft.state === 'deleted' ? undefined : keep);
      await access.settle(accountId, [path]);
      return true;
    });
    return done === true;
  }
}

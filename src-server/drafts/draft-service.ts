import type { DraftSave, DraftSaved, DraftView } from '../../shared/api/compose';
import { TernError } from '../../shared/errors';
import type { AccountStore } from '../accounts/account-store';
import type { FolderRoles } from '../actions/folder-roles';
import type { MailboxAccess } from '../actions/mailbox-access';
import { hasFlag } from '../imap/imap-flags';
import { newMessageIdHeader } from '../smtp/mime-builder';
import type { SqlStore } from '../store/sql';
import type { TransactionLog } from '../store/transaction-log';
import { DraftAdopter } from './draft-adopter';
import { DraftRecovery } from './draft-recovery';
import { DraftLocks, type DraftLocksOptions } from './draft-locks';
import type { DraftFields, DraftParent, DraftRecord, DraftStore } from './draft-store';
import { KeyedLock } from './keyed-lock';
import { appendMessage, deleteByMessageId, refusedAppendError } from './mailbox-search';
import type { MessageAssembler } from './message-assembler';
import type { ParentResolver } from './parent-resolver';
import { toUploadedFile, type UploadStore } from './upload-store';

export interface DraftServiceDeps {
  /** The mirror's messages, to name a draft's copy by its message id. */
  readonly sql: SqlStore;
  readonly store: DraftStore;
  readonly accounts: Pick<AccountStore, 'get'>;
  readonly assembler: MessageAssembler;
  readonly parents: ParentResolver;
  readonly uploads: UploadStore;
  readonly roles: FolderRoles;
  readonly access: MailboxAccess;
  readonly txlog: TransactionLog;
  /** The cross-node save locks' times (tests shorten them). */
  readonly locks?: Partial<DraftLocksOptions>;
}

const DRAFT_FLAGS = ['\\Draft', '\\Seen'];
const MIRRORED_ID = 'SELECT m.id FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.account_id = ? AND f.path = ? AND m.uid = ?';
const MIRRORED_MESSAGE = `SELECT m.uid, m.flags, m.message_id_header AS "messageIdHeader", f.path FROM messages m JOIN folders f ON f.id = m.folder_id
  WHERE m.account_id = ? AND m.id = ?`;

/**
 * Drafts live in the account's Drafts folder (APPEND with \Draft \Seen, the previous
 * version deleted), so every mail program sees them, and in the gateway's database, which holds the
 * version counter that turns a save over a newer one into InvalidDraftVersion. Every
 * version keeps the draft's own Message-ID, so all copies — also ones a crash between
 * APPEND and delete left behind — are found and removed by it.
 */
export class DraftService {
  /** One save of a draft at a time, on any node (draft-locks.ts). */
  private readonly locks: DraftLocks;
  /** Opening a message as a draft, one at a time per message: a double click adopts it once. */
  private readonly openings = new KeyedLock<number>();
  private readonly adopter: DraftAdopter;
  private readonly recovery: DraftRecovery;

  constructor(private readonly deps: DraftServiceDeps) {
    this.locks = new DraftLocks(deps.sql, deps.locks);
    this.adopter = new DraftAdopter({ sql: deps.sql, store: deps.store, accounts: deps.accounts, access: deps.access, uploads: deps.uploads });
    this.recovery = new DraftRecovery({
      store: deps.store,
      roles: deps.roles,
      access: deps.access,
      locks: this.locks,
      flags: DRAFT_FLAGS,
      render: (draft) => this.render({ accountId: draft.accountId, fields: draft.fields, parent: draft, attachmentIds: draft.attachmentIds, messageIdHeader: draft.messageIdHeader }),
    });
  }

  /**
   * The draft (with its Message-ID and client id) is recorded before its APPEND, marked as a
   * save under way: a retry with the same client id — also after a crash — is answered
   * DraftAlreadyCreated naming this draft, never a second one, and a crash before the APPEND
   * finished is put right by DraftRecovery from the record.
   */
  async create(accountId: number, body: DraftSave): Promise<DraftSaved> {
    const { store, assembler, access, roles } = this.deps;
    await this.refuseRepeat(accountId, body.clientId);
    const fields = await assembler.fieldsOf(accountId, body);
    const parent = await this.parentOf(accountId, body, null);
    const messageIdHeader = newMessageIdHeader((await this.deps.accounts.get(accountId))!.email);
    const path = await roles.pathOf(accountId, 'drafts');
    const raw = await this.render({ accountId, fields, parent, attachmentIds: body.attachmentIds, messageIdHeader });
    let draft: DraftRecord;
    // The draft's lock is taken with its insert: a save of this draft by its client's retry, on
    // any node, waits for the APPEND.
    const lock = this.locks.newToken();
    try {
      draft = await this.deps.sql.transaction(async () => {
        const inserted = await store.insert({ accountId, clientId: body.clientId ?? null, messageIdHeader, folderPath: path, uid: null, fields, parent, attachmentIds: body.attachmentIds, saving: true });
        await this.locks.take(inserted.id, lock);
        return inserted;
      });
    } catch (error) {
      await this.refuseRepeat(accountId, body.clientId); // a create racing its own retry: the first one stands
      throw error;
    }
    return this.locks.run(draft.id, async () => {
      try {
        const uid = await access.withFolder(accountId, path, (client) => appendMessage({ client, path, raw, flags: DRAFT_FLAGS, messageIdHeader })).catch((error: unknown) => {
          throw refusedAppendError(error, path);
        });
        await store.endSave(draft.id, uid);
      } catch (error) {
        // Without a client id nobody can come back for this draft: it goes (its copy, if the APPEND
        // landed after all, by the recovery). With one, the retry finds it and saves over it.
        if (body.clientId === undefined) await store.transition(draft.id, ['open'], 'deleted');
        throw error;
      }
      return this.saved((await store.get(accountId, draft.id))!, path);
    }, lock);
  }

  async update(accountId: number, draftId: number, body: DraftSave): Promise<DraftSaved> {
    return this.locks.run(draftId, async () => {
      const { store, assembler, access, roles } = this.deps;
      const current = await this.editable(accountId, draftId);
      if (body.version !== current.version) throw new TernError('InvalidDraftVersion', { detail: { currentVersion: current.version } });
      const fields = await assembler.fieldsOf(accountId, body);
      const parent = await this.parentOf(accountId, body, current);
      const path = await roles.pathOf(accountId, 'drafts');
      const raw = await this.render({ accountId, fields, parent, attachmentIds: body.attachmentIds, messageIdHeader: current.messageIdHeader });
      // The copy this save replaces, recorded before the APPEND (awaited: on disk before the APPEND
      // starts): a crash from here on leaves two copies (or one the record does not name), which
      // DraftRecovery resolves to one.
      const previousUid = current.folderPath === path ? current.uid : null;
      await store.beginSave(draftId, previousUid);
      const draft = await access.withFolder(accountId, path, async (client) => {
        const uid = await appendMessage({ client, path, raw, flags: DRAFT_FLAGS, messageIdHeader: current.messageIdHeader }).catch((error: unknown) => {
          throw refusedAppendError(error, path);
        });
        const updated = await store.update({ accountId, id: draftId, expectedVersion: body.version, folderPath: path, uid, fields, parent, attachmentIds: body.attachmentIds });
        if (!updated) {
          // Saved or sent elsewhere between the check and now (another gateway node): undo our copy.
          if (uid !== null) await client.messageDelete(String(uid), { uid: true });
          await this.editable(accountId, draftId);
          throw new TernError('InvalidDraftVersion', { detail: { currentVersion: (await store.get(accountId, draftId))?.version } });
        }
        // The previous copy by its UID too: an adopted draft's may lack our Message-ID.
        await deleteByMessageId(client, current.messageIdHeader, uid, previousUid === null ? [] : [previousUid]);
        await store.endSave(draftId);
        return updated;
      });
      if (current.folderPath && current.folderPath !== path) await this.deleteCopies(accountId, current.folderPath, current.messageIdHeader);
      return this.saved(draft, path);
    });
  }

  /** DELETE /api/drafts/:id: the Drafts copies first, so a failure leaves the draft whole. */
  async remove(accountId: number, draftId: number): Promise<{ latestTxnId: number }> {
    return this.locks.run(draftId, async () => {
      const draft = await this.editable(accountId, draftId);
      const path = draft.folderPath ?? (await this.deps.roles.pathOf(accountId, 'drafts'));
      await this.deleteCopies(accountId, path, draft.messageIdHeader);
      if (!(await this.deps.store.transition(draft.id, ['open'], 'deleted'))) await this.editable(accountId, draftId);
      await this.deps.access.settle(accountId, [path]);
      return { latestTxnId: await this.deps.txlog.latest(accountId) };
    });
  }

  async view(accountId: number, draftId: number): Promise<DraftView> {
    const draft = await this.deps.store.get(accountId, draftId);
    if (!draft || draft.state === 'deleted') throw new TernError('DraftDoesNotExist');
    const messageId = draft.folderPath && draft.uid !== null ? await this.mirroredMessageId(accountId, draft.folderPath, draft.uid) : null;
    return {
      id: String(draft.id),
      version: draft.version,
      state: draft.state,
      from: draft.fields.from,
      to: [...draft.fields.to],
      cc: [...draft.fields.cc],
      bcc: [...draft.fields.bcc],
      subject: draft.fields.subject,
      html: draft.fields.html,
      text: draft.fields.text,
      inReplyTo: draft.parentId === null ? null : String(draft.parentId),
      attachments: (await this.deps.uploads.existing(accountId, draft.attachmentIds)).map(toUploadedFile),
      messageId,
      updatedAt: draft.updatedAt,
    };
  }

  /**
   * GET /api/drafts/of-message/:id: the draft a message of the Drafts folder is a version of,
   * to edit it. A draft saved by another mail program (no record of ours) is adopted first
   * (DraftAdopter); one being sent or sent is DraftAlreadySent; a message that is not a
   * draft, DraftDoesNotExist.
   */
  async viewOfMessage(accountId: number, messageId: number): Promise<DraftView> {
    return this.openings.run(messageId, async () => {
      const row = await this.deps.sql.get<{ uid: number; flags: string; messageIdHeader: string | null; path: string }>(MIRRORED_MESSAGE, [accountId, messageId]);
      if (!row) throw new TernError('MessageNotFound', { detail: { messageId: String(messageId) } });
      const { store } = this.deps;
      const known = (row.messageIdHeader === null ? undefined : await store.byMessageIdHeader(accountId, row.messageIdHeader)) ?? (await store.atCopy(accountId, row.path, row.uid));
      if (known && known.state !== 'deleted') return this.view(accountId, (await this.editable(accountId, known.id)).id);
      if (!hasFlag(JSON.parse(row.flags) as string[], '\\Draft')) throw new TernError('DraftDoesNotExist');
      const messageIdHeader = row.messageIdHeader ?? newMessageIdHeader((await this.deps.accounts.get(accountId))!.email);
      const adopted = await this.adopter.adopt({ accountId, folderPath: row.path, uid: row.uid, messageIdHeader });
      return this.view(accountId, adopted.id);
    });
  }

  /**
   * Puts right every save a crash (or IMAP failing mid-way) left unfinished: one Drafts copy
   * per draft. A save still running on some node holds its lock and is left alone; `soleNode`
   * (SQLite at start: no other process uses the database) first drops the locks of a process gone.
   */
  async recoverSaves(onError: (accountId: number, error: unknown) => void, soleNode = false): Promise<number> {
    if (soleNode) await this.locks.releaseAll();
    return this.recovery.recoverAll(onError);
  }

  /** Removes every copy of a draft from a folder (after its send, or on delete). */
  async deleteCopies(accountId: number, path: string, messageIdHeader: string): Promise<void> {
    await this.deps.access.withFolder(accountId, path, (client) => deleteByMessageId(client, messageIdHeader));
  }

  /** The draft if it can still be changed; otherwise the catalogue error saying why not. */
  async editable(accountId: number, draftId: number): Promise<DraftRecord> {
    const draft = await this.deps.store.get(accountId, draftId);
    if (!draft || draft.state === 'deleted') throw new TernError('DraftDoesNotExist');
    if (draft.state !== 'open') throw new TernError('DraftAlreadySent');
    return draft;
  }

  private async refuseRepeat(accountId: number, clientId: string | undefined): Promise<void> {
    const existing = clientId === undefined ? undefined : await this.deps.store.byClientId(accountId, clientId);
    if (existing) throw new TernError('DraftAlreadyCreated', { detail: { id: String(existing.id), version: existing.version } });
  }

  /** The same parent as last time is not looked up again; a new one is (ParentMessageNotFound). */
  private async parentOf(accountId: number, body: DraftSave, current: DraftRecord | null): Promise<DraftParent> {
    const parentId = body.inReplyTo === undefined ? null : Number(body.inReplyTo);
    if (current && parentId !== null && parentId === current.parentId) return current;
    return this.deps.parents.resolve({ accountId, parentId, fallbackReferences: body.references ?? [] });
  }

  private async render(params: { accountId: number; fields: DraftFields; parent: DraftParent; attachmentIds: readonly string[]; messageIdHeader: string }): Promise<Buffer> {
    const { message } = await this.deps.assembler.assemble({ ...params, date: new Date() });
    return this.deps.assembler.raw(message, { keepBcc: true });
  }

  private async saved(draft: DraftRecord, path: string): Promise<DraftSaved> {
    await this.deps.access.settle(draft.accountId, [path]);
    return {
      id: String(draft.id),
      version: draft.version,
      messageId: draft.uid === null ? null : await this.mirroredMessageId(draft.accountId, path, draft.uid),
      messageIdHeader: draft.messageIdHeader,
      latestTxnId: await this.deps.txlog.latest(draft.accountId),
    };
  }

  private async mirroredMessageId(accountId: number, path: string, uid: number): Promise<string | null> {
    const row = await this.deps.sql.get<{ id: number }>(MIRRORED_ID, [accountId, path, uid]);
    return row ? String(row.id) : null;
  }
}

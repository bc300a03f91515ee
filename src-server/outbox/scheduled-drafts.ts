import type { FolderRoles } from '../actions/folder-roles';
import type { MailboxAccess } from '../actions/mailbox-access';
import type { DraftService } from '../drafts/draft-service';
import type { DraftStore } from '../drafts/draft-store';

export interface ScheduledDraftsDeps {
  readonly drafts: Pick<DraftService, 'deleteCopies' | 'update'>;
  readonly draftStore: DraftStore;
  readonly roles: FolderRoles;
  readonly access: Pick<MailboxAccess, 'settle'>;
}

/**
 * Where a scheduled message's draft is while it waits: not in Drafts (Nextcloud Mail lost
 * scheduled mail that shared a folder with drafts, and another mail program would offer it
 * as a draft to send) — the outbox row holds the whole message, the draft record its fields.
 * Cancelled, it is saved back to Drafts from those fields as a new version of the same draft.
 */
export class ScheduledDrafts {
  constructor(private readonly deps: ScheduledDraftsDeps) {}

  async hide(accountId: number, draftId: number): Promise<void> {
    const draft = await this.deps.draftStore.get(accountId, draftId);
    if (!draft) return;
    const path = draft.folderPath ?? (await this.deps.roles.pathOf(accountId, 'drafts'));
    await this.deps.drafts.deleteCopies(accountId, path, draft.messageIdHeader);
    await this.deps.access.settle(accountId, [path]);
  }

  async restore(accountId: number, draftId: number): Promise<void> {
    const draft = await this.deps.draftStore.get(accountId, draftId);
    if (draft?.state !== 'open') return;
    const { fields } = draft;
    await this.deps.drafts.update(accountId, draftId, {
      version: draft.version,
      ...(fields.from ? { from: fields.from } : {}),
      to: [...fields.to],
      cc: [...fields.cc],
      bcc: [...fields.bcc],
      subject: fields.subject,
      ...(fields.html !== null ? { html: fields.html } : {}),
      ...(fields.text !== null ? { text: fields.text } : {}),
      ...(draft.parentId !== null ? { inReplyTo: String(draft.parentId) } : {}),
      references: [...draft.references],
      attachmentIds: [...draft.attachmentIds],
    });
  }
}

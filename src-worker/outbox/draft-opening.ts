/**
 * Reopening a draft from its message in Drafts. The message's id is not the draft's: the
 * gateway names the draft (GET /api/drafts/of-message/:id) with everything it holds — Bcc
 * and attachments, which the mirrored message does not show — and that id is what the next
 * save and the send use. A save of the draft still waiting in this outbox is newer than
 * what the gateway has, so its fields win.
 */
import type { DraftView } from '../../shared/api/compose';
import type { DraftEdit } from '../../shared/worker-mail-api';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction } from '../db/store';
import { readDraftLink } from './draft-store';
import { liveRows, type DraftRow } from '../mail-store/outbox-rows';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A plain-text draft as editor HTML: one paragraph per line. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => `<p>${line === '' ? '<br>' : escapeHtml(line)}</p>`)
    .join('');
}

/** The newest save of the gateway's draft `serverId` that has not reached it yet. */
export async function waitingSaveOf(tx: ReadTransaction<MailTable>, serverId: string): Promise<DraftRow | undefined> {
  let newest: DraftRow | undefined;
  for (const row of await liveRows(tx)) {
    if (row.kind !== 'saveDraft' || row.status === 'sent') continue;
    const same = row.draft_id === serverId || (await readDraftLink(tx, row.draft_id)).serverId === serverId;
    if (same && (!newest || row.seq > newest.seq)) newest = row;
  }
  return newest;
}

/** The newest save of the draft a composer saved under `draftId` that has not reached the gateway yet. */
export async function waitingSaveById(tx: ReadTransaction<MailTable>, draftId: string, serverId: string | null): Promise<DraftRow | undefined> {
  const own = (await liveRows(tx)).filter((row): row is DraftRow => row.kind === 'saveDraft' && row.status !== 'sent' && row.draft_id === draftId).at(-1);
  return own ?? (serverId ? waitingSaveOf(tx, serverId) : undefined);
}

/** A draft known only by a save that has not reached the gateway (its files' names are not known here). */
export function draftEditOfSave(accountId: string, draftId: string, waiting: DraftRow): DraftEdit {
  const { draftId: _local, attachmentIds: _files, ...fields } = waiting.draft;
  return { ...fields, accountId, draftId, attachments: [] };
}

/** The composer's draft from the gateway's view, with a waiting save's fields over it. */
export function draftEditOf(accountId: string, view: DraftView, waiting: DraftRow | undefined): DraftEdit {
  const files = view.attachments.map((file) => ({ attachmentId: file.id, fileName: file.filename, size: file.size }));
  if (waiting) {
    const { draftId: _local, attachmentIds, ...fields } = waiting.draft;
    const kept = new Set(attachmentIds);
    // Names are the gateway's: a file added by the waiting save alone is not known here yet.
    return { ...fields, accountId, draftId: view.id, attachments: files.filter((file) => kept.has(file.attachmentId)) };
  }
  return {
    accountId,
    draftId: view.id,
    to: view.to,
    cc: view.cc,
    bcc: view.bcc,
    subject: view.subject,
    html: view.html ?? textToHtml(view.text ?? ''),
    ...(view.inReplyTo ? { inReplyToMessageId: view.inReplyTo } : {}),
    ...(view.from ? { from: view.from } : {}),
    attachments: files,
  };
}

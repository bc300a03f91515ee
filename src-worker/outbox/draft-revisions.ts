/**
 * Which version of a draft each composer writes over. Every tab shares this one engine, so
 * the gateway's version check cannot see two tabs editing the same draft: the engine always
 * sends the newest version it knows, and the last tab to save won silently (the issue's
 * repro: one draft open in two tabs, edited in both, then Send in the first — the message
 * left with the second tab's text). Here each save names the revision its composer last
 * saw; a save over a newer one (another tab saved meanwhile) or over a draft on its way out
 * is refused at once as InvalidDraftVersion, before anything is recorded, so the composer
 * can offer to keep both versions. Kept in JSONBlob `draft-rev:<id>`, under the gateway's
 * id once the draft has one (a tab that opened it from Drafts knows only that id).
 */
import { TernError } from '../../shared/errors';
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction, WriteTransaction } from '../db/store';
import { readDraftLink } from './draft-store';

interface RevisionRow {
  readonly revision: number;
  /** A send of it is recorded (in its undo window or gone): no composer may change it any more. */
  readonly sent: boolean;
}

const revisionKey = (id: string) => `draft-rev:${id}`;

/** The id the revision is kept under: the gateway's, once the local draft has one. */
async function canonicalId(tx: ReadTransaction<MailTable>, draftId: string): Promise<string> {
  return (await readDraftLink(tx, draftId)).serverId ?? draftId;
}

async function readRow(tx: ReadTransaction<MailTable>, id: string): Promise<RevisionRow> {
  const row = await tx.get('JSONBlob', revisionKey(id));
  return { revision: typeof row?.revision === 'number' ? row.revision : 0, sent: row?.sent === true };
}

const writeRow = (tx: WriteTransaction<MailTable>, id: string, row: RevisionRow) => tx.put('JSONBlob', { id: revisionKey(id), ...row });

/** The revision a composer opening the draft starts from. */
export async function currentRevision(tx: ReadTransaction<MailTable>, draftId: string): Promise<number> {
  return (await readRow(tx, await canonicalId(tx, draftId))).revision;
}

/**
 * A save of `draftId` by a composer that last saw `baseRevision`: refused when another
 * composer saved since or the draft is being sent; otherwise the new revision. Without a
 * base (a tab from before this check) the save is taken as it always was.
 */
export async function claimRevision(tx: WriteTransaction<MailTable>, draftId: string, baseRevision: number | undefined): Promise<number> {
  const id = await canonicalId(tx, draftId);
  const row = await readRow(tx, id);
  if (baseRevision !== undefined && (row.sent || row.revision !== baseRevision)) {
    throw new TernError('InvalidDraftVersion', { detail: { draftId, reason: row.sent ? 'sent' : 'edited', revision: row.revision } });
  }
  const revision = row.revision + 1;
  await writeRow(tx, id, { revision, sent: false });
  return revision;
}

/** A send of the draft is recorded (true) or undone / failed, the draft open again (false). */
export async function markSending(tx: WriteTransaction<MailTable>, draftId: string, sent: boolean): Promise<void> {
  const id = await canonicalId(tx, draftId);
  await writeRow(tx, id, { ...(await readRow(tx, id)), sent });
}

/**
 * The gateway has just named a local draft: its revision moves under the gateway's id
 * (which a tab opening it from Drafts will use), unless one is kept there already.
 */
export async function moveRevision(tx: WriteTransaction<MailTable>, localId: string, serverId: string): Promise<void> {
  if (localId === serverId) return;
  const local = await tx.get('JSONBlob', revisionKey(localId));
  if (!local || (await tx.get('JSONBlob', revisionKey(serverId)))) return;
  await writeRow(tx, serverId, await readRow(tx, localId));
}

/**
 * Which outbox rows must wait for which. Rows go out oldest first, but one the gateway keeps
 * failing with a server error (retried with backoff for minutes) must not hold up rows that
 * do not depend on it — a Send clicked for another draft, an unrelated archive. So the rows
 * form lanes, each in order: one per draft (its saves, its discard, its send: a send never
 * overtakes its own draft's save, or it would send an older text) and one for all actions
 * (an action may depend on an earlier one: a move, then a delete of the same thread). A row
 * that has to wait blocks its own lane for the pass, and only that lane.
 */
import type { MailTable } from '../db/mail-schema';
import type { ReadTransaction } from '../db/store';
import { liveRows, type OutboxRow } from '../mail-store/outbox-rows';
import { readDraftLink } from './draft-store';

export interface LaneRow {
  readonly row: OutboxRow;
  /** Rows with the same lane are sent in order; rows of different lanes do not wait for each other. */
  readonly lane: string;
}

const ACTIONS_LANE = 'actions';

/**
 * Every live row of the account, oldest first, with its lane. A composer reopened from
 * Drafts names its draft by the gateway's id while an older save may still wait under the
 * local id: the draft's link makes both one lane.
 */
export async function laneRows(tx: ReadTransaction<MailTable>): Promise<LaneRow[]> {
  const rows = await liveRows(tx);
  const draftLanes = new Map<string, string>();
  for (const row of rows) {
    if (row.kind === 'action' || draftLanes.has(row.draft_id)) continue;
    draftLanes.set(row.draft_id, `draft:${(await readDraftLink(tx, row.draft_id)).serverId ?? row.draft_id}`);
  }
  return rows.map((row) => ({ row, lane: row.kind === 'action' ? ACTIONS_LANE : draftLanes.get(row.draft_id)! }));
}

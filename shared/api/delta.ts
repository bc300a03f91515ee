import * as z from 'zod';
import { rulesActivitySchema } from '../mail-rules';
import { identitiesDocSchema } from '../identities';
import { planResponseSchema } from '../plans';
import { labelsDocSchema } from './labels';
import { preferencesDocSchema } from '../preferences';
import { pendingSendsSchema } from './compose';
import { timersDocSchema } from './timers';
import { folderSchema, messageMetaSchema, threadSummarySchema } from './mail';

/** The delta's word that the address book (or the templates) changed: the txlog id of its latest change. */
export const contactsRevisionSchema = z.object({ revision: z.number().int() });

/** GET /api/delta?cursor=N&limit=M */
export const deltaQuerySchema = z.object({
  cursor: z.coerce.number().int().nonnegative(),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
});
export type DeltaQuery = z.infer<typeof deltaQuerySchema>;

/**
 * One change of the account's transaction log. An upsert carries the object's state as
 * of the read (so several changes of one object collapse into one); a delete its id.
 */
// Upserts are told apart by `object` first: zod 4 rejects one `op` value shared by several options.
const upsertChangeSchema = z.discriminatedUnion('object', [
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('folder'), data: folderSchema }),
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('message'), data: messageMetaSchema }),
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('thread'), data: threadSummarySchema }),
  // The account's preferences changed (any device): the whole document, so the newest wins.
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('preferences'), data: preferencesDocSchema }),
  // The account's plan changed (the operator's command line): the plan and its features.
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('plan'), data: planResponseSchema }),
  // The address book changed (any device): its latest change's id; the engine then pulls the
  // cards themselves from its own cursor (GET /api/contacts?since=…, shared/api/contacts.ts).
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('contacts'), data: contactsRevisionSchema }),
  // The sends waiting on the gateway changed (held, scheduled, cancelled, gone out): the whole list.
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('scheduled'), data: pendingSendsSchema }),
  // Snoozes, reminders and follow-ups changed (set, moved, fired, dismissed): the whole list.
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('timers'), data: timersDocSchema }),
  // The rules changed (a save on any device) or an "apply to existing mail" run moved on: the
  // revision and the runs; a tab showing the rules loads them again when the revision passed its own.
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('rules'), data: rulesActivitySchema }),
  // The account's identities changed (any device): the whole list, so the newest wins.
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('identities'), data: identitiesDocSchema }),
  // The account's label table changed (any device): the whole table, so the newest wins.
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('labels'), data: labelsDocSchema }),
  // The templates changed (any device): their latest change's id; the engine pulls them from
  // the account's emailTemplateCursor (GET /api/templates?since=…, shared/templates.ts).
  z.object({ txnId: z.number().int(), op: z.literal('upsert'), object: z.literal('templates'), data: contactsRevisionSchema }),
]);
export const deltaChangeSchema = z.discriminatedUnion('op', [
  upsertChangeSchema,
  z.object({ txnId: z.number().int(), op: z.literal('delete'), object: z.enum(['folder', 'message', 'thread']), objectId: z.string() }),
]);
export type DeltaChange = z.infer<typeof deltaChangeSchema>;

export const deltaResponseSchema = z.object({
  changes: z.array(deltaChangeSchema),
  /** The txnId to ask from next time. */
  cursor: z.number().int(),
  hasMore: z.boolean(),
});
export type DeltaResponse = z.infer<typeof deltaResponseSchema>;

/** Websocket frame: "account X has transactions up to N". */
export const pushFrameSchema = z.object({ type: z.literal('txn'), accountId: z.string(), latestTxnId: z.number().int() });
export type PushFrame = z.infer<typeof pushFrameSchema>;

/**
 * Close codes of the push websocket. The close reason carries the catalogue error name
 * where there is one ('InvalidToken', 'TokenParamMissing'), so the worker can rebuild it.
 */
export const PUSH_CLOSE_CODES = {
  /** The session ended (logout): stop, do not reconnect. */
  loggedOut: 4000,
  /** No token, or not a live session: log in again. */
  invalidToken: 4401,
} as const;

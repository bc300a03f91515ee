/**
 * The engine's PriorityService (shared/worker-api.ts, issue 17 point 4): "why is this
 * important" for a conversation, and one learning step of the account's model per
 * "Mark important / not important". The mark itself is the label command on $Important,
 * run by the tab like any other (its undo is the label's); the model is the preference
 * `priorityModel`, so it roams and the next scan (priority-scan.ts) scores with it.
 */
import * as z from 'zod';
import type { MessageMeta, ThreadSummary } from '../../shared/api/mail';
import type { Clock } from '../../shared/clock';
import { systemClock } from '../../shared/clock';
import { TernError } from '../../shared/errors';
import type { PreferencePatch } from '../../shared/preferences';
import { DEFAULT_PRIORITY_MODEL, hasImportantKeyword, learnPriority, priorityReasons, scorePriority, type PriorityInput } from '../../shared/priority-score';
import type { PriorityExplanation, PriorityService } from '../../shared/worker-api';
import type { MailTable } from '../db/mail-schema';
import { withRead, type LocalStore } from '../db/store';
import { folderFromRow, messageFromRow, threadFromRow } from '../mail-store/mail-rows';
import { gatherPriorityInputs, isOwnMessage } from './priority-inputs';
import { ownAddresses, readPreferences } from './priority-scan';

export interface EnginePriorityDeps {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly accountAddresses: (accountId: string) => Promise<readonly string[] | null>;
  readonly savePreferences: (accountId: string, patch: PreferencePatch) => Promise<unknown>;
  readonly clock?: Clock;
}

const id = z.string().min(1).max(64);
const explainSchema = z.object({ accountId: id, threadId: id });
const learnSchema = z.object({ accountId: id, threadIds: z.array(id).min(1).max(500), important: z.boolean() });

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TernError('InvalidParameter', { detail: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) });
  return parsed.data;
}

/** A thread as the scorer sees it: its newest message from someone else, the Inbox's first. */
interface ScoredThread {
  readonly thread: ThreadSummary;
  readonly input: PriorityInput | null;
}

export class EnginePriority implements PriorityService {
  constructor(private readonly deps: EnginePriorityDeps) {}

  async explain(params: { readonly accountId: string; readonly threadId: string }): Promise<PriorityExplanation> {
    const { accountId, threadId } = parse(explainSchema, params);
    const [found] = await this.read(accountId, [threadId]);
    if (!found) throw new TernError('ThreadNotFound', { detail: { accountId, threadId } });
    const model = (await this.model(accountId)) ?? DEFAULT_PRIORITY_MODEL;
    const important = hasImportantKeyword(found.thread.keywords);
    if (!found.input) return { important, score: important ? 1 : 0, reasons: [], marked: important };
    const verdict = scorePriority(found.input, model);
    return { important, score: verdict.score, reasons: priorityReasons(found.input, important, model), marked: verdict.important !== important };
  }

  async learn(params: { readonly accountId: string; readonly threadIds: readonly string[]; readonly important: boolean }): Promise<void> {
    const { accountId, threadIds, important } = parse(learnSchema, params);
    const found = await this.read(accountId, threadIds);
    let model = (await this.model(accountId)) ?? DEFAULT_PRIORITY_MODEL;
    for (const { input } of found) if (input) model = learnPriority(model, input, important);
    if (model.trained > 0) await this.deps.savePreferences(accountId, { priorityModel: model });
  }

  private async model(accountId: string) {
    return withRead(await this.deps.open(accountId), ['JSONBlob'], async (tx) => (await readPreferences(tx)).priorityModel);
  }

  /** The threads found (a missing one is left out), each with its scorer input. */
  private async read(accountId: string, threadIds: readonly string[]): Promise<ScoredThread[]> {
    const addresses = await this.deps.accountAddresses(accountId);
    if (!addresses) throw new TernError('AccountNotFound', { detail: { accountId } });
    const now = (this.deps.clock ?? systemClock).now();
    return withRead(await this.deps.open(accountId), ['Thread', 'Message', 'Contact', 'Category', 'JSONBlob', 'FeatureSettings'], async (tx) => {
      const own = await ownAddresses(tx, addresses);
      const folders = (await tx.getAll('Category')).map(folderFromRow);
      const inbox = folders.find((folder) => folder.specialUse === 'inbox')?.id ?? null;
      const sentFolderId = folders.find((folder) => folder.specialUse === 'sent')?.id ?? null;
      const threads = new Map<string, ThreadSummary>();
      for (const row of await tx.getMany('Thread', threadIds)) {
        if (!row) continue;
        const { summary } = threadFromRow(row);
        threads.set(summary.id, summary);
      }
      const messages = (await tx.getMany('Message', [...threads.values()].flatMap((thread) => thread.messageIds))).flatMap((row) => (row ? [messageFromRow(row).meta] : []));
      const chosen = new Map<string, MessageMeta>();
      for (const meta of messages) {
        if (meta.draft || isOwnMessage(meta, own)) continue;
        const best = chosen.get(meta.threadId);
        const rank = (m: MessageMeta) => [m.folderId === inbox ? 1 : 0, m.receivedAt] as const;
        if (!best || rank(meta)[0] > rank(best)[0] || (rank(meta)[0] === rank(best)[0] && meta.receivedAt > best.receivedAt)) chosen.set(meta.threadId, meta);
      }
      const inputs = await gatherPriorityInputs(tx, [...chosen.values()], threads, { own, sentFolderId, now });
      return [...threads.values()].map((thread) => {
        const message = chosen.get(thread.id);
        return { thread, input: (message && inputs.get(message.id)) ?? null };
      });
    });
  }
}

/**
 * The engine's ContactsService (shared/worker-contacts-api.ts): each account's address book
 * cached in its database (mail-store/contact-cards.ts), pulled from the gateway's changes
 * stream at start and whenever the delta says the book changed (any device), pushed to every
 * watching tab, and changed at once here, then on the gateway (contact-sender.ts), so an edit
 * works offline and reaches the gateway later.
 */
import type { Clock } from '../../shared/clock';
import { systemClock } from '../../shared/clock';
import type { LogType } from '../../shared/constants';
import { CONTACT_LIMITS, contactDisplayName, contactInputSchema, mergeCards, type Contact } from '../../shared/contacts';
import { TernError } from '../../shared/errors';
import type { ContactBook, ContactCard, ContactList, ContactsService } from '../../shared/worker-contacts-api';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore, type WriteTransaction } from '../db/store';
import {
  CONTACT_TABLES,
  cardKey,
  opIds,
  pendingIds,
  readCard,
  readCards,
  readContactsCursor,
  readContactLists,
  readOps,
  toContactCard,
  writeCard,
  writeContactLists,
  writeContactsCursor,
  writeOps,
  type CardRow,
  type ContactOp,
} from '../mail-store/contact-cards';
import type { OnlineStatus } from '../net/online-status';
import { createContactSender, type ContactSender } from './contact-sender';
import type { ContactsGateway } from './contacts-gateway';
import { OneRunPerKey } from '../net/one-run-per-key';

export interface EngineContactsDeps {
  /** The stored accounts' ids. */
  readonly accountIds: () => Promise<readonly string[]>;
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly gateway: (accountId: string) => Promise<ContactsGateway>;
  readonly online: Pick<OnlineStatus, 'isOnline' | 'subscribe'>;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly log?: (type: LogType, message: string) => void;
  /** Live cards per account (CONTACT_LIMITS.contacts; tests lower it). */
  readonly maxContacts?: number;
  /**
   * Contact rows (by key) or the lists changed here, after the commit: the engine's recipient
   * suggestions (queries/suggestion-indexes.ts) read them again.
   */
  readonly bookChanged?: (accountId: string, change: { readonly keys?: readonly string[]; readonly lists?: boolean }) => void;
}

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/**
 * Appends a change; a put right after a put of the same card replaces it (one request, the
 * newest fields) — unless that put is the first waiting: the sender may have it on the wire,
 * and settling it drops the first entry, so a replaced one would be lost (an edit made while
 * the card's creation was being sent).
 */
export function queue(ops: readonly ContactOp[], op: ContactOp): ContactOp[] {
  const last = ops.at(-1);
  if (op.kind === 'put' && last?.kind === 'put' && last.id === op.id && ops.length > 1) return [...ops.slice(0, -1), op];
  return [...ops, op];
}

/** The book itself; its files (import, export) are contact-files.ts. */
export class EngineContacts implements Omit<ContactsService, 'previewImport' | 'importFile' | 'exportFile'> {
  private readonly watchers = new Map<string, { accountId: string; onChange: (book: ContactBook) => unknown }>();
  private readonly refusals = new Map<string, ContactBook['refused']>();
  private readonly pulls = new OneRunPerKey();
  private readonly sender: ContactSender;
  private readonly clock: Clock;

  constructor(private readonly deps: EngineContactsDeps) {
    this.clock = deps.clock ?? systemClock;
    this.sender = createContactSender({
      open: deps.open,
      gateway: deps.gateway,
      online: deps.online,
      ...(deps.clock ? { clock: deps.clock } : {}),
      ...(deps.random ? { random: deps.random } : {}),
      changed: (accountId, cardIds) => this.changed(accountId, cardIds),
      refused: (accountId, error) => {
        this.refusals.set(accountId, { name: error.name, message: error.message });
        deps.log?.('Error', `a contact change of ${accountId} was refused by the gateway (${error.name}); taken back on this device`);
        this.changed(accountId);
      },
      drained: (accountId) => void this.pull(accountId),
    });
  }

  async list({ accountId }: { readonly accountId: string }): Promise<ContactBook> {
    const store = await this.open(accountId);
    const { rows, lists } = await withRead(store, CONTACT_TABLES, async (tx) => ({ rows: await readCards(tx), lists: (await readContactLists(tx)).lists }));
    const cards = rows.filter((row) => !row.deleted).map(toContactCard);
    const names = new Map(cards.map((card) => [card.id, contactDisplayName(card)]));
    cards.sort((a, b) => byName.compare(names.get(a.id)!, names.get(b.id)!) || a.id.localeCompare(b.id));
    return { accountId, cards, lists: [...lists].sort((a, b) => byName.compare(a.name, b.name)), refused: this.refusals.get(accountId) ?? null };
  }

  async save({ accountId, id, card }: Parameters<ContactsService['save']>[0]): Promise<ContactCard> {
    const parsed = contactInputSchema.safeParse(card);
    if (!parsed.success) throw new TernError('InvalidRequestData', { detail: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) });
    const cardId = id ?? crypto.randomUUID();
    const now = this.clock.now();
    const saved = await this.change(accountId, async (tx) => {
      const old = await readCard(tx, cardId);
      if (!old || old.deleted) await this.assertRoom(tx, 1);
      const next: Contact = { id: cardId, ...parsed.data, createdAt: old?.card.createdAt ?? now, updatedAt: now };
      writeCard(tx, { card: next, deleted: false, unsynced: true });
      return { op: { kind: 'put', id: cardId, card: parsed.data }, result: { ...next, unsynced: true } };
    });
    return saved;
  }

  async remove({ accountId, ids }: { readonly accountId: string; readonly ids: readonly string[] }): Promise<void> {
    await this.change(accountId, async (tx) => {
      const live = (await this.rows(tx, ids)).filter((row) => !row.deleted);
      for (const row of live) writeCard(tx, { ...row, deleted: true, unsynced: true });
      return { op: live.length > 0 ? { kind: 'delete', ids: live.map((row) => row.card.id) } : null, result: undefined };
    });
  }

  async restore({ accountId, ids }: { readonly accountId: string; readonly ids: readonly string[] }): Promise<void> {
    await this.change(accountId, async (tx) => {
      const gone = (await this.rows(tx, ids)).filter((row) => row.deleted);
      await this.assertRoom(tx, gone.length);
      for (const row of gone) writeCard(tx, { ...row, deleted: false, unsynced: true });
      return { op: gone.length > 0 ? { kind: 'restore', ids: gone.map((row) => row.card.id) } : null, result: undefined };
    });
  }

  async merge({ accountId, ids }: { readonly accountId: string; readonly ids: readonly string[] }): Promise<ContactCard> {
    const unique = [...new Set(ids)];
    if (unique.length < 2) throw new TernError('InvalidRequestData', { detail: { ids: 'two different cards' } });
    return this.change(accountId, async (tx) => {
      const rows = await this.rows(tx, unique);
      const missing = unique.filter((id) => !rows.some((row) => row.card.id === id && !row.deleted));
      if (missing.length > 0) throw new TernError('InvalidOperation', { detail: { contacts: missing } });
      const ordered = unique.map((id) => rows.find((row) => row.card.id === id)!);
      const [first, ...others] = ordered;
      const merged: Contact = { ...first!.card, ...mergeCards(ordered.map((row) => row.card)), updatedAt: this.clock.now() };
      writeCard(tx, { card: merged, deleted: false, unsynced: true });
      for (const row of others) writeCard(tx, { ...row, deleted: true, unsynced: true });
      return { op: { kind: 'merge', ids: unique }, result: { ...merged, unsynced: true } };
    });
  }

  async saveList({ accountId, id, name, memberIds }: Parameters<ContactsService['saveList']>[0]): Promise<ContactList> {
    await this.open(accountId);
    const saved = await (await this.deps.gateway(accountId)).putList(id ?? crypto.randomUUID(), { name: name.trim(), memberIds: [...new Set(memberIds)] });
    await this.pull(accountId);
    return saved;
  }

  async removeList({ accountId, id }: { readonly accountId: string; readonly id: string }): Promise<void> {
    await this.open(accountId);
    await (await this.deps.gateway(accountId)).deleteList(id);
    await this.pull(accountId);
  }

  async forgetSuggestion({ accountIds, email }: { readonly accountIds: readonly string[]; readonly email: string }): Promise<void> {
    const id = email.trim().toLowerCase();
    for (const accountId of accountIds) {
      await withWrite(await this.open(accountId), ['Contact'], async (tx) => {
        const row = await tx.get('Contact', id);
        if (row && row.is_personal_contact !== 1) await tx.put('Contact', { ...row, forgotten: 1 });
      });
      this.deps.bookChanged?.(accountId, { keys: [id] });
    }
  }

  async watch({ accountId }: { readonly accountId: string }, onChange: (book: ContactBook) => void): Promise<{ readonly subscriptionId: string }> {
    await this.open(accountId);
    const subscriptionId = crypto.randomUUID();
    this.watchers.set(subscriptionId, { accountId, onChange });
    void this.list({ accountId })
      .then((book) => this.watchers.has(subscriptionId) && onChange(book))
      .catch(() => this.watchers.delete(subscriptionId));
    return { subscriptionId };
  }

  async unwatch({ subscriptionId }: { readonly subscriptionId: string }): Promise<void> {
    this.watchers.delete(subscriptionId);
  }

  /**
   * Reads the gateway's changes after this device's cursor, page by page (sign-in, engine
   * start, the delta's word that the book changed). Changes waiting here go first, so the
   * pull after them sees them confirmed; cards they touch are left as they are here.
   * One pull at a time per account; a call during one runs another after it.
   */
  pull(accountId: string): Promise<void> {
    return this.pulls.run(accountId, () =>
      this.pullOnce(accountId).catch((error: unknown) => this.deps.log?.('Info', `pulling the contacts of ${accountId}: ${error instanceof Error ? error.message : String(error)}`)),
    );
  }

  /** The cards of an account changed (here, a pull, a refusal): every tab watching it hears, and the suggestions read these cards again. */
  changed(accountId: string, cardIds: readonly string[] = [], lists = false): void {
    if (cardIds.length > 0 || lists) this.deps.bookChanged?.(accountId, { keys: cardIds.map(cardKey), lists });
    const watching = [...this.watchers].filter(([, watcher]) => watcher.accountId === accountId);
    if (watching.length === 0) return;
    void this.list({ accountId })
      .then((book) => {
        for (const [id, watcher] of watching) {
          void Promise.resolve()
            .then(() => watcher.onChange(book))
            .catch(() => this.watchers.delete(id));
        }
      })
      .catch((error: unknown) => this.deps.log?.('Error', `reading contacts: ${String(error)}`));
  }

  stop(): void {
    this.sender.stop();
  }

  private async pullOnce(accountId: string): Promise<void> {
    const store = await this.deps.open(accountId);
    if ((await withRead(store, CONTACT_TABLES, readOps)).length > 0) {
      await this.sender.send(accountId); // its end (drained) asks for the pull again
      return;
    }
    const gateway = await this.deps.gateway(accountId);
    for (;;) {
      const cursor = await withRead(store, CONTACT_TABLES, readContactsCursor);
      const page = await gateway.changes(cursor);
      const applied = await withWrite(store, CONTACT_TABLES, async (tx) => {
        if ((await readContactsCursor(tx)) !== cursor) return false; // another pull moved it: this page no longer follows
        const pending = pendingIds(await readOps(tx));
        for (const card of page.contacts) if (!pending.has(card.id)) writeCard(tx, { card, deleted: false, unsynced: false });
        for (const id of page.deleted) {
          const old = pending.has(id) ? undefined : await readCard(tx, id);
          if (old) writeCard(tx, { ...old, deleted: true, unsynced: false });
        }
        writeContactsCursor(tx, page.cursor);
        return page.contacts.length + page.deleted.length > 0;
      });
      if (applied) this.changed(accountId, [...page.contacts.map((card) => card.id), ...page.deleted]);
      if (!page.hasMore) break;
    }
    if (await this.pullLists(store, gateway)) this.changed(accountId, [], true);
  }

  /**
   * The lists' changes after this device's cursor; on a plan without contact groups (402) the
   * lists are dropped here, so a downgraded account shows none. Whether anything changed.
   */
  private async pullLists(store: LocalStore<MailTable>, gateway: ContactsGateway): Promise<boolean> {
    let changed = false;
    for (;;) {
      const { lists, cursor } = await withRead(store, CONTACT_TABLES, readContactLists);
      let page;
      try {
        page = await gateway.listChanges(cursor);
      } catch (error) {
        if (!(error instanceof TernError && error.name === 'FeatureNotInPlan')) throw error;
        if (lists.length > 0 || cursor !== '') await withWrite(store, CONTACT_TABLES, async (tx) => writeContactLists(tx, { lists: [], cursor: '' }));
        return lists.length > 0;
      }
      const gone = new Set([...page.deleted, ...page.lists.map((list) => list.id)]);
      const next = [...lists.filter((list) => !gone.has(list.id)), ...page.lists];
      await withWrite(store, CONTACT_TABLES, async (tx) => writeContactLists(tx, { lists: next, cursor: page.cursor }));
      changed ||= page.lists.length + page.deleted.length > 0;
      if (!page.hasMore) return changed;
    }
  }

  /** One local change and the request it owes the gateway, in one transaction; then the tabs hear and the sender goes. */
  private async change<R>(accountId: string, body: (tx: WriteTransaction<MailTable>) => Promise<{ op: ContactOp | null; result: R }>): Promise<R> {
    const store = await this.open(accountId);
    const { result, queued } = await withWrite(store, CONTACT_TABLES, async (tx) => {
      const { op, result } = await body(tx);
      if (op) writeOps(tx, queue(await readOps(tx), op));
      return { result, queued: op };
    });
    if (queued) {
      this.refusals.delete(accountId);
      this.changed(accountId, opIds(queued));
      void this.sender.send(accountId);
    }
    return result;
  }

  private async rows(tx: WriteTransaction<MailTable>, ids: readonly string[]): Promise<CardRow[]> {
    const rows: CardRow[] = [];
    for (const id of ids) {
      const row = await readCard(tx, id);
      if (row) rows.push(row);
    }
    return rows;
  }

  /** This device's count of live cards leaves room for `adding`, else TotalContactsLimitExceed (the gateway checks again). */
  private async assertRoom(tx: WriteTransaction<MailTable>, adding: number): Promise<void> {
    if (adding === 0) return;
    const limit = this.deps.maxContacts ?? CONTACT_LIMITS.contacts;
    const count = (await readCards(tx)).filter((row) => !row.deleted).length;
    if (count + adding > limit) throw new TernError('TotalContactsLimitExceed', { detail: { limit, count } });
  }

  private async open(accountId: string): Promise<LocalStore<MailTable>> {
    if (!(await this.deps.accountIds()).includes(accountId)) throw new TernError('AccountNotFound', { detail: { accountId } });
    return this.deps.open(accountId);
  }
}

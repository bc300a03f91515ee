/**
 * Sends an account's waiting address book changes (mail-store/contact-cards.ts `contact-ops`)
 * to the gateway, oldest first, one at a time, like the mail outbox: stored before they are
 * sent, so a closed tab or a killed worker loses none; sent again on reconnect and on the
 * shared backoff. What the gateway answers becomes the card here; a change it refuses for
 * good (TotalContactsLimitExceed, a card another device removed) is taken back: the cards it
 * touched are read again from the gateway, and the tabs are told why.
 */
import { TernError } from '../../shared/errors';
import type { MailTable } from '../db/mail-schema';
import { withRead, withWrite, type LocalStore } from '../db/store';
import { CONTACT_TABLES, dropCard, opIds, pendingIds, readCard, readOps, writeCard, writeOps, type ContactOp } from '../mail-store/contact-cards';
import { asTernError, createRetryLater, serialByAccount, type QueueSenderDeps, type SendOutcome } from '../api/retry-later';
import type { ContactsGateway } from './contacts-gateway';
import type { Contact } from '../../shared/contacts';

export interface ContactSenderDeps extends Omit<QueueSenderDeps<ContactsGateway>, 'changed'> {
  /** These cards were confirmed or taken back here: tell the tabs. */
  readonly changed: (accountId: string, cardIds: readonly string[]) => void;
  /** A change the gateway refused for good was taken back. */
  readonly refused: (accountId: string, error: TernError) => void;
  /** Nothing waits any more: the stream may be pulled without leaving ids out. */
  readonly drained: (accountId: string) => void;
}

export interface ContactSender {
  /** Sends what waits for the account; resolves when the queue is empty (the last change's fate) or waits (queued). */
  send(accountId: string): Promise<SendOutcome>;
  stop(): void;
}

/** The gateway's answer to one change: the cards it now holds for the change's ids (null: gone). */
async function sendOp(gateway: ContactsGateway, op: ContactOp): Promise<Map<string, Contact | null>> {
  switch (op.kind) {
    case 'put':
      return new Map([[op.id, await gateway.put(op.id, op.card)]]);
    case 'delete':
      for (const id of op.ids) await gateway.delete(id);
      return new Map(op.ids.map((id) => [id, null]));
    case 'restore':
      await gateway.restore(op.ids);
      return readBack(gateway, op.ids);
    case 'merge': {
      const merged = await gateway.merge(op.ids);
      return new Map(op.ids.map((id, i) => [id, i === 0 ? merged : null]));
    }
  }
}

/** The gateway's cards by id; one it has not (InvalidOperation 404) is null. */
async function readBack(gateway: ContactsGateway, ids: readonly string[]): Promise<Map<string, Contact | null>> {
  const cards = new Map<string, Contact | null>();
  for (const id of ids) {
    cards.set(
      id,
      await gateway.get(id).catch((error: unknown) => {
        if (error instanceof TernError && error.name === 'InvalidOperation') return null;
        throw error;
      }),
    );
  }
  return cards;
}

export function createContactSender(deps: ContactSenderDeps): ContactSender {
  let stopped = false;
  const retry = createRetryLater({ online: deps.online, run: (accountId) => send(accountId), ...(deps.clock ? { clock: deps.clock } : {}), ...(deps.random ? { random: deps.random } : {}) });

  /** Settles the first waiting change with the gateway's cards; ids a later change still touches stay as they are here. */
  const settle = async (store: LocalStore<MailTable>, op: ContactOp, cards: Map<string, Contact | null>) =>
    withWrite(store, CONTACT_TABLES, async (tx) => {
      const rest = (await readOps(tx)).slice(1);
      writeOps(tx, rest);
      const stillPending = pendingIds(rest);
      for (const id of opIds(op)) {
        if (stillPending.has(id)) continue;
        const card = cards.get(id);
        const old = await readCard(tx, id);
        if (card) writeCard(tx, { card, deleted: false, unsynced: false });
        else if (old) writeCard(tx, { ...old, deleted: true, unsynced: false });
        else dropCard(tx, id);
      }
      return rest.length;
    });

  const pass = async (accountId: string): Promise<SendOutcome> => {
    const store = await deps.open(accountId);
    for (;;) {
      if (stopped) return { kind: 'queued', error: new TernError('OperationFailed', { detail: { stopped: true } }) };
      const [op] = await withRead(store, CONTACT_TABLES, readOps);
      if (!op) return { kind: 'confirmed' };
      const gateway = await deps.gateway(accountId);
      let cards: Map<string, Contact | null>;
      let refusal: TernError | null = null;
      try {
        cards = await sendOp(gateway, op);
      } catch (error) {
        const queued = retry.failed(accountId, error);
        if (queued) return queued;
        refusal = asTernError(error);
        // Taken back: what the gateway holds for those cards is what this device shows.
        cards = await readBack(gateway, opIds(op)).catch(() => new Map());
      }
      retry.succeeded(accountId);
      const left = await settle(store, op, cards);
      deps.changed(accountId, opIds(op));
      // A refused change does not hold back the ones after it.
      if (refusal) deps.refused(accountId, refusal);
      if (left === 0) {
        deps.drained(accountId);
        return refusal ? { kind: 'refused', error: refusal } : { kind: 'confirmed' };
      }
    }
  };

  const send = serialByAccount(pass);

  return {
    send,
    stop() {
      stopped = true;
      retry.stop();
    },
  };
}

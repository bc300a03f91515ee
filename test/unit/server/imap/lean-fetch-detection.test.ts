import type { FetchMessageObject, ImapFlow, MailboxObject } from 'imapflow';
import { describe, expect, test } from 'vitest';
import { LeanFetch } from '../../../../src-server/imap/lean-fetch';

// Whether the FETCH fast path is on imapflow's path, told apart with stand-ins for the three
// shapes an imapflow can have: the reader method it stands in for, none, or one never called.

interface StreamItem {
  readonly payload: Buffer;
  readonly literals: Buffer[];
}

const mailbox = (): MailboxObject => ({ path: 'INBOX', uidValidity: 7n, uidNext: 10, exists: 2, flags: new Set() }) as unknown as MailboxObject;
const response = (seq: number, uid: number): StreamItem => ({
  payload: Buffer.from(`* ${seq} FETCH (UID ${uid} FLAGS (\\Seen) ENVELOPE (NIL "Subject ${uid}" NIL NIL NIL NIL NIL NIL NIL "<m${uid}@x>"))`),
  literals: [],
});
const flagChange: StreamItem = { payload: Buffer.from('* 1 FETCH (UID 3 FLAGS ())'), literals: [] };
const asMessage = (uid: number) => ({ uid, seq: uid, flags: new Set<string>() }) as FetchMessageObject;

/** imapflow as the fast path expects it: every response goes through `handleResponse` while `fetch` runs. */
class ReaderClient {
  readonly mailbox = mailbox();
  readonly seenByImapflow: StreamItem[] = [];
  constructor(private readonly responses: StreamItem[]) {}
  async handleResponse(data: StreamItem): Promise<boolean> {
    this.seenByImapflow.push(data);
    return true;
  }
  async *fetch(): AsyncGenerator<FetchMessageObject> {
    for (const data of this.responses) await this.handleResponse(data);
    // imapflow yields what its own reader read: here, the responses the fast path passed on.
    for (const data of this.seenByImapflow) yield asMessage(Number(/UID (\d+)/.exec(data.payload.toString())![1]));
  }
}

/** An imapflow whose reader is not (or no longer) called `handleResponse`. */
class RenamedReaderClient {
  readonly mailbox = mailbox();
  async handleResponse(): Promise<boolean> {
    throw new Error('never called by this imapflow');
  }
  async *fetch(): AsyncGenerator<FetchMessageObject> {
    yield asMessage(5);
    yield asMessage(6);
  }
}

/** An imapflow without the method at all. */
class NoReaderClient {
  readonly mailbox = mailbox();
  async *fetch(): AsyncGenerator<FetchMessageObject> {
    yield asMessage(5);
  }
}

async function run(lean: LeanFetch, client: object): Promise<number[]> {
  const uids: number[] = [];
  await lean.fetch(client as ImapFlow, '1:*', { uid: true, envelope: true }, 'ENVELOPE', (message) => uids.push(message.uid));
  return uids;
}

describe('LeanFetch tells whether the fast path serves the FETCH', () => {
  test('an imapflow that reads through handleResponse: the marked responses are served, the rest goes on to imapflow', async () => {
    const reports: Error[] = [];
    const lean = new LeanFetch({ onInactive: (error) => reports.push(error) });
    expect(lean.status.mode).toBe('unknown');
    const client = new ReaderClient([response(1, 5), flagChange, response(2, 6)]);
    expect(await run(lean, client)).toEqual([5, 6, 3]);
    expect(client.seenByImapflow).toEqual([flagChange]);
    expect(lean.status).toEqual({ mode: 'active', served: 2, passedOn: 1, reason: null });
    expect(reports).toEqual([]);
    // The stand-in is gone after the command: the prototype's reader is the instance's again.
    expect(Object.prototype.hasOwnProperty.call(client, 'handleResponse')).toBe(false);
  });

  test('an imapflow that no longer calls handleResponse: inactive, reported once, every message still delivered', async () => {
    const reports: Error[] = [];
    const lean = new LeanFetch({ onInactive: (error) => reports.push(error) });
    expect(await run(lean, new RenamedReaderClient())).toEqual([5, 6]);
    expect(await run(lean, new RenamedReaderClient())).toEqual([5, 6]);
    expect(lean.status).toMatchObject({ mode: 'inactive', served: 0, passedOn: 4 });
    expect(lean.status.reason).toMatch(/did not call handleResponse/);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.message).toMatch(/fast path inactive/);
  });

  test('an imapflow without handleResponse: inactive from the first fetch, reported once', async () => {
    const reports: Error[] = [];
    const lean = new LeanFetch({ onInactive: (error) => reports.push(error) });
    expect(await run(lean, new NoReaderClient())).toEqual([5]);
    expect(await run(lean, new NoReaderClient())).toEqual([5]);
    expect(lean.status).toMatchObject({ mode: 'inactive', served: 0, passedOn: 2 });
    expect(lean.status.reason).toMatch(/no handleResponse/);
    expect(reports).toHaveLength(1);
  });

  test('a fast path that worked and then stops being called is reported then', async () => {
    const reports: Error[] = [];
    const lean = new LeanFetch({ onInactive: (error) => reports.push(error) });
    await run(lean, new ReaderClient([response(1, 5)]));
    expect(lean.status.mode).toBe('active');
    await run(lean, new RenamedReaderClient());
    expect(lean.status.mode).toBe('inactive');
    expect(reports).toHaveLength(1);
  });
});

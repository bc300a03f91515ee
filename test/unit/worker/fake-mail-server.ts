/**
 * A fake of our own gateway for the worker's unit tests: folders, messages and threads
 * with a transaction log, answered through a `fetch` with the real routes' shapes
 * (delta, folders, threads, bodies, bulk actions, drafts, send, status image), and push
 * websockets the test can announce on. Threads are summarised by the gateway's rules.
 */
import type { BulkAction } from '../../../shared/api/actions';
import type { DeltaChange, DeltaResponse } from '../../../shared/api/delta';
import type { AttachmentSummary, Folder, MessageMeta, SpecialUse, ThreadSummary } from '../../../shared/api/mail';
import { applyEffects, commandEffects, type PlanFolders, type FolderRole } from '../../../shared/command-effects';
import type { WebSocketLike } from '../../../src-worker/sync/push-socket';
import { summarizeThread } from '../../../src-worker/mail-store/thread-summary';

type TxObject = 'folder' | 'message' | 'thread';

/** A draft as the fake keeps it: what the last save sent. */
interface FakeDraft {
  readonly version: number;
  readonly clientId: string | null;
  readonly subject: string;
  readonly to?: readonly { name: string; email: string }[];
  readonly cc?: readonly { name: string; email: string }[];
  readonly bcc?: readonly { name: string; email: string }[];
  readonly html?: string;
  readonly attachmentIds?: readonly string[];
}
export type Handler = (request: { method: string; path: string; url: URL; body: unknown; headers: Headers }) => Response | undefined | Promise<Response | undefined>;

export class FakeSocket implements WebSocketLike {
  readonly listeners = new Map<string, ((event: never) => void)[]>();
  closed: { code: number; reason: string } | null = null;
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: never) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: unknown = {}): void {
    for (const listener of this.listeners.get(type) ?? []) (listener as (event: unknown) => void)(event);
  }
  close(code = 1000, reason = ''): void {
    if (this.closed) return;
    this.closed = { code, reason };
  }
  /** The server side closes the socket. */
  drop(code = 1006, reason = ''): void {
    this.closed = { code, reason };
    this.emit('close', { code, reason });
  }
}

export class FakeMailServer {
  readonly folders = new Map<string, Folder>();
  readonly messages = new Map<string, MessageMeta>();
  readonly log: { txnId: number; object: TxObject; objectId: string }[] = [];
  readonly requests: { method: string; path: string; body: unknown; headers: Headers }[] = [];
  readonly sockets: FakeSocket[] = [];
  readonly sent = new Map<string, { draftId: string }>();
  /** Sends held for their undo window (POST /api/send with holdMs), by outbox id, until `releaseHeld`. */
  readonly held = new Map<string, { idempotencyKey: string; draftId: string; sendAt: number }>();
  private nextOutboxId = 100;
  /** Held sends whose window ended (GET /api/outbox/:id answers them sent). */
  private readonly released = new Set<string>();
  /** Held sends taken back (undo here or on another device): GET /api/outbox/:id answers them cancelled. */
  private readonly undone = new Set<string>();
  readonly drafts = new Map<string, FakeDraft>();
  /** GET /api/search: the message ids the gateway's search finds per query (it reads text the cache never sees). */
  readonly serverSearchHits = new Map<string, string[]>();
  /** Queries GET /api/search was asked, in order. */
  readonly serverSearches: string[] = [];
  /** The draft each message of Drafts is a version of (GET /api/drafts/of-message/:id), as the test files them. */
  readonly draftOfMessage = new Map<string, string>();
  /** Attachment bytes by `${messageId}/${index}`, served at /api/messages/:id/attachments/:index. */
  readonly files = new Map<string, { bytes: Uint8Array<ArrayBuffer>; contentType: string }>();
  /** Very large HTML bodies by message id: the body route sends their first 20 characters with `truncated`, all of them with ?whole=1. */
  readonly largeBodies = new Map<string, string>();
  /** Test hooks: answer a request before the fake does (return undefined to let it). */
  readonly handlers: Handler[] = [];
  private nextId = 100;

  constructor(
    readonly accountId = '7',
    readonly token = 'token-7',
  ) {}

  get latest(): number {
    return this.log.at(-1)?.txnId ?? 0;
  }

  private append(changes: { object: TxObject; objectId: string }[]): number {
    for (const change of changes) this.log.push({ txnId: this.latest + 1, ...change });
    return this.latest;
  }

  addFolder(name: string, specialUse: SpecialUse | null = null, parentId: string | null = null): Folder {
    const folder: Folder = { id: String(this.nextId++), path: name, name, parentId, specialUse, total: 0, unread: 0 };
    this.folders.set(folder.id, folder);
    this.append([{ object: 'folder', objectId: folder.id }]);
    return folder;
  }

  /** Changes a folder as the gateway would (e.g. `mirrored` once it has read it), logging it; returns the new latest id. */
  updateFolder(folderId: string, change: Partial<Omit<Folder, 'id'>>): number {
    const folder = this.folders.get(folderId);
    if (!folder) throw new Error(`no folder ${folderId}`);
    this.folders.set(folderId, { ...folder, ...change });
    return this.append([{ object: 'folder', objectId: folderId }]);
  }

  folderOf(role: SpecialUse): Folder {
    const folder = [...this.folders.values()].find((candidate) => candidate.specialUse === role);
    if (!folder) throw new Error(`no ${role} folder`);
    return folder;
  }

  /** A standard account: Inbox, Drafts, Sent, Archive, Junk, Trash. */
  standardFolders(): void {
    for (const role of ['inbox', 'drafts', 'sent', 'archive', 'junk', 'trash'] as const) this.addFolder(role === 'inbox' ? 'INBOX' : role[0]!.toUpperCase() + role.slice(1), role);
  }

  /** Delivers a message (a new thread unless `threadId` is given); returns it. */
  deliver(params: { subject: string; at: number; folder?: SpecialUse; threadId?: string; from?: string; unread?: boolean; attachments?: readonly Omit<AttachmentSummary, 'index'>[] }): MessageMeta {
    const id = String(this.nextId++);
    const threadId = params.threadId ?? String(this.nextId++);
    const message: MessageMeta = {
      id,
      threadId,
      folderId: this.folderOf(params.folder ?? 'inbox').id,
      messageIdHeader: `<${id}@fake>`,
      subject: params.subject,
      from: [{ name: params.from ?? 'Carol', email: `${(params.from ?? 'carol').toLowerCase()}@example.com` }],
      to: [{ name: 'Ann', email: 'ann@example.com' }],
      cc: [],
      replyTo: [],
      date: params.at,
      receivedAt: params.at,
      unread: params.unread ?? true,
      starred: false,
      answered: false,
      draft: false,
      keywords: [],
      size: 1000,
      attachments: (params.attachments ?? []).map((attachment, index) => ({ ...attachment, index })),
      snippet: `About ${params.subject}`,
    };
    this.messages.set(id, message);
    this.append([
      { object: 'message', objectId: id },
      { object: 'thread', objectId: threadId },
    ]);
    return message;
  }

  thread(threadId: string): ThreadSummary | null {
    const messages = [...this.messages.values()].filter((message) => message.threadId === threadId);
    const summary = summarizeThread(threadId, messages);
    // The real gateway (src-server/mirror/materialize.ts) flags any attachment; the paperclip rule is the engine's.
    return summary && { ...summary, hasAttachments: messages.some((message) => message.attachments.length > 0) };
  }

  /** Changes messages as the gateway would, logging them; returns the new latest id. */
  change(messageIds: readonly string[], change: (message: MessageMeta) => MessageMeta | null): number {
    const touched: { object: TxObject; objectId: string }[] = [];
    for (const id of messageIds) {
      const message = this.messages.get(id);
      if (!message) continue;
      const next = change(message);
      if (next) this.messages.set(id, next);
      else this.messages.delete(id);
      touched.push({ object: 'message', objectId: id }, { object: 'thread', objectId: message.threadId });
    }
    return this.append(touched);
  }

  delta(cursor: number, limit: number): DeltaResponse {
    const after = this.log.filter((entry) => entry.txnId > cursor);
    const page = after.slice(0, limit);
    const last = new Map<string, (typeof page)[number]>();
    for (const entry of page) {
      last.delete(`${entry.object}:${entry.objectId}`);
      last.set(`${entry.object}:${entry.objectId}`, entry);
    }
    const changes: DeltaChange[] = [...last.values()].map(({ txnId, object, objectId }) => {
      if (object === 'folder') {
        const data = this.folders.get(objectId);
        return data ? { txnId, op: 'upsert', object, data } : { txnId, op: 'delete', object, objectId };
      }
      if (object === 'message') {
        const data = this.messages.get(objectId);
        return data ? { txnId, op: 'upsert', object, data } : { txnId, op: 'delete', object, objectId };
      }
      const data = this.thread(objectId);
      return data ? { txnId, op: 'upsert', object, data } : { txnId, op: 'delete', object, objectId };
    });
    return { changes, cursor: page.at(-1)?.txnId ?? cursor, hasMore: after.length > limit };
  }

  private roles(): PlanFolders {
    const ids: Partial<Record<FolderRole, string>> = {};
    for (const folder of this.folders.values()) if (folder.specialUse && folder.specialUse !== 'all' && folder.specialUse !== 'flagged' && folder.specialUse !== 'snoozed') ids[folder.specialUse] = folder.id;
    return { ids, roleOf: (id) => (Object.entries(ids).find(([, folderId]) => folderId === id)?.[0] as FolderRole | undefined) ?? null };
  }

  bulk(body: BulkAction): Response {
    if (body.folderId !== undefined && !this.folders.has(body.folderId)) {
      return Response.json({ error: 'TargetFolderNotExists', description: 'The destination folder does not exist.', detail: { folderId: body.folderId } }, { status: 404 });
    }
    const threads = new Map(body.ids.map((threadId) => [threadId, [...this.messages.values()].filter((message) => message.threadId === threadId)]));
    if ([...threads.values()].some((list) => list.length === 0)) return Response.json({ error: 'ThreadNotFound', description: 'The conversation could not be found.' }, { status: 404 });
    const command =
      body.action === 'move'
        ? { kind: 'move' as const, accountId: this.accountId, threadIds: body.ids, folderId: body.folderId! }
        : body.action === 'read' || body.action === 'unread'
          ? { kind: 'markRead' as const, accountId: this.accountId, threadIds: body.ids, read: body.action === 'read' }
          : body.action === 'star' || body.action === 'unstar'
            ? { kind: 'star' as const, accountId: this.accountId, threadIds: body.ids, starred: body.action === 'star' }
            : body.action === 'label' || body.action === 'unlabel'
              ? { kind: 'label' as const, accountId: this.accountId, threadIds: body.ids, keyword: body.keyword!, add: body.action === 'label' }
              : { kind: body.action as 'archive' | 'trash' | 'spam' | 'delete', accountId: this.accountId, threadIds: body.ids };
    const effects = commandEffects(command, new Map([...threads].map(([id, list]) => [id, list.map((m) => ({ id: m.id, folderId: m.folderId, date: m.date }))])), this.roles());
    const latestTxnId = this.change(Object.keys(effects), (message) => {
      const effect = effects[message.id]!;
      if (effect.deleted) return null;
      return applyEffects(message, [effect]).meta;
    });
    return Response.json({ messageIds: Object.keys(effects), latestTxnId });
  }

  /** POST /api/messages/bulk: only `move` (what an undo sends), message by message, ids kept as the gateway keeps them. */
  bulkMessages(body: BulkAction): Response {
    if (body.action !== 'move' || body.folderId === undefined) return Response.json({ error: 'NoSuchMethod', description: 'The fake moves messages only.' }, { status: 404 });
    if (!this.folders.has(body.folderId)) return Response.json({ error: 'TargetFolderNotExists', description: 'The destination folder does not exist.' }, { status: 404 });
    if (body.ids.some((id) => !this.messages.has(id))) return Response.json({ error: 'MessageNotFound', description: 'The message could not be found.' }, { status: 404 });
    const moved = body.ids.filter((id) => this.messages.get(id)!.folderId !== body.folderId);
    const latestTxnId = this.change(moved, (message) => ({ ...message, folderId: body.folderId! }));
    return Response.json({ messageIds: moved, latestTxnId });
  }

  /** Tells every open socket about the latest transaction. */
  announce(): void {
    for (const socket of this.sockets) if (!socket.closed) socket.emit('message', { data: JSON.stringify({ type: 'txn', accountId: this.accountId, latestTxnId: this.latest }) });
  }

  readonly connectSocket = (url: string): FakeSocket => {
    const socket = new FakeSocket(url);
    this.sockets.push(socket);
    // Opens on the next turn with the current latest id, as the gateway's open frame.
    queueMicrotask(() => {
      if (socket.closed) return;
      socket.emit('open');
      socket.emit('message', { data: JSON.stringify({ type: 'txn', accountId: this.accountId, latestTxnId: this.latest }) });
    });
    return socket;
  };

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const headers = new Headers(init.headers);
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : (init.body ?? null);
    const path = url.pathname;
    this.requests.push({ method, path, body, headers });
    for (const handler of this.handlers) {
      const answer = await handler({ method, path, url, body, headers });
      if (answer) return answer;
    }
    return this.route({ method, path, url, body, headers });
  };

  /** What the gateway answers, without the test's handlers (a handler may do the work and then drop the answer). */
  route({ method, path, url, body, headers }: { method: string; path: string; url: URL; body: unknown; headers: Headers }): Response {
    if (path === '/status.png') return new Response('ok');
    if (headers.get('authorization') !== `Bearer ${this.token}`) return Response.json({ error: 'InvalidToken', description: 'Your session has ended.' }, { status: 401 });
    if (path === '/api/delta') return Response.json(this.delta(Number(url.searchParams.get('cursor')), Number(url.searchParams.get('limit'))));
    if (path === '/api/folders') return Response.json({ folders: [...this.folders.values()], separator: '/' });
    if (path === '/api/search') {
      const q = url.searchParams.get('q') ?? '';
      this.serverSearches.push(q);
      const hits = this.serverSearchHits.get(q) ?? [];
      const threadIds = new Set(hits.map((id) => this.messages.get(id)!.threadId));
      const threads = [...threadIds].map((id) => this.thread(id)!).sort((a, b) => b.lastMessageAt - a.lastMessageAt);
      return Response.json({ threads, matchedMessages: hits.length, truncated: false, complete: true, pendingOnServer: 0 });
    }
    if (path === '/api/threads') {
      const folderId = url.searchParams.get('folderId');
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const ids = new Set([...this.messages.values()].filter((message) => message.folderId === folderId).map((message) => message.threadId));
      const threads = [...ids].map((id) => this.thread(id)!).sort((a, b) => b.lastMessageAt - a.lastMessageAt);
      return Response.json({ threads: threads.slice(0, limit), nextBefore: null });
    }
    const thread = /^\/api\/threads\/(\d+)$/.exec(path);
    if (thread) {
      const summary = this.thread(thread[1]!);
      if (!summary) return Response.json({ error: 'ThreadNotFound', description: 'Not found' }, { status: 404 });
      return Response.json({ thread: summary, messages: summary.messageIds.map((id) => this.messages.get(id)) });
    }
    const messageBody = /^\/api\/messages\/(\d+)\/body$/.exec(path);
    const large = messageBody ? this.largeBodies.get(messageBody[1]!) : undefined;
    if (messageBody && large !== undefined) {
      const whole = url.searchParams.get('whole') === '1';
      const html = whole ? large : large.slice(0, 20);
      return Response.json({ messageId: messageBody[1], html, text: null, attachments: [], headers: {}, ...(whole ? {} : { truncated: { htmlBytes: large.length } }) });
    }
    const previewLink = /^\/api\/messages\/(\d+)\/attachments\/(\d+)\/preview-link$/.exec(path);
    if (previewLink) return Response.json({ path: `/attachment-preview/${previewLink[1]}.${previewLink[2]}.signed`, expiresAt: Date.now() + 300_000 });
    if (messageBody) return Response.json({ messageId: messageBody[1], html: `<p>Body of ${messageBody[1]}</p>`, text: null, attachments: [], headers: {} });
    const attachment = /^\/api\/messages\/(\d+)\/attachments\/(\d+)$/.exec(path);
    if (attachment) {
      const file = this.files.get(`${attachment[1]}/${attachment[2]}`);
      if (!file) return Response.json({ error: 'FileNotFound', description: 'The file could not be found.' }, { status: 404 });
      return new Response(file.bytes, { headers: { 'content-type': file.contentType, 'x-content-type-options': 'nosniff' } });
    }
    if (path === '/api/threads/bulk') return this.bulk(body as BulkAction);
    if (path === '/api/messages/bulk') return this.bulkMessages(body as BulkAction);
    if (path === '/api/drafts' && method === 'POST') {
      const save = body as FakeDraft & { clientId?: string };
      const existing = [...this.drafts].find(([, draft]) => save.clientId !== undefined && draft.clientId === save.clientId);
      if (existing) return Response.json({ error: 'DraftAlreadyCreated', description: 'exists', detail: { id: existing[0], version: existing[1].version } }, { status: 409 });
      const id = String(this.nextId++);
      this.drafts.set(id, { ...save, version: 1, clientId: save.clientId ?? null });
      return Response.json({ id, version: 1, messageId: null, messageIdHeader: `<${id}@fake>`, latestTxnId: this.latest }, { status: 201 });
    }
    const ofMessage = /^\/api\/drafts\/of-message\/(\d+)$/.exec(path);
    const draftId = ofMessage ? this.draftOfMessage.get(ofMessage[1]!) : undefined;
    if (ofMessage && method === 'GET') return draftId ? this.draftView(draftId) : Response.json({ error: 'DraftDoesNotExist', description: 'gone' }, { status: 404 });
    const draft = /^\/api\/drafts\/(\d+)$/.exec(path);
    if (draft && method === 'GET') return this.draftView(draft[1]!);
    if (draft && method === 'PUT') {
      const stored = this.drafts.get(draft[1]!);
      const save = body as FakeDraft;
      if (!stored) return Response.json({ error: 'DraftDoesNotExist', description: 'gone' }, { status: 404 });
      if (stored.version !== save.version) return Response.json({ error: 'InvalidDraftVersion', description: 'changed' }, { status: 409 });
      this.drafts.set(draft[1]!, { ...save, clientId: stored.clientId, version: stored.version + 1 });
      return Response.json({ id: draft[1], version: stored.version + 1, messageId: null, messageIdHeader: `<${draft[1]}@fake>`, latestTxnId: this.latest });
    }
    if (draft && method === 'DELETE') {
      if (!this.drafts.delete(draft[1]!)) return Response.json({ error: 'DraftDoesNotExist', description: 'gone' }, { status: 404 });
      return Response.json({ latestTxnId: this.latest });
    }
    const undo = /^\/api\/outbox\/(\d+)\/undo$/.exec(path);
    if (undo && method === 'POST') {
      const held = this.held.get(undo[1]!);
      if (!held) return Response.json({ error: 'SendAlreadyLeft', description: 'gone' }, { status: 410 });
      this.held.delete(undo[1]!);
      this.undone.add(undo[1]!);
      return Response.json({ outboxId: undo[1], draftId: held.draftId, latestTxnId: this.latest });
    }
    const status = /^\/api\/outbox\/(\d+)$/.exec(path);
    if (status && this.held.has(status[1]!)) return Response.json({ outboxId: status[1], state: 'queued', messageIdHeader: '<x@fake>', rejected: [], latestTxnId: this.latest, lastError: null });
    if (status && this.undone.has(status[1]!)) return Response.json({ outboxId: status[1], state: 'cancelled', messageIdHeader: '<x@fake>', rejected: [], latestTxnId: this.latest, lastError: null });
    if (status && this.released.has(status[1]!)) return Response.json({ outboxId: status[1], state: 'sent', sentCopy: 'filed', messageIdHeader: '<x@fake>', rejected: [], latestTxnId: this.latest, lastError: null });
    if (path === '/api/send' && (body as { holdMs?: number }).holdMs) {
      const send = body as { idempotencyKey: string; draftId: string; holdMs: number };
      const outboxId = String(this.nextOutboxId++);
      this.held.set(outboxId, { idempotencyKey: send.idempotencyKey, draftId: send.draftId, sendAt: Date.now() + send.holdMs });
      return Response.json({ outboxId, state: 'queued', messageIdHeader: '<x@fake>', rejected: [], latestTxnId: this.latest, lastError: null, sendAt: Date.now() + send.holdMs, scheduled: false }, { status: 202 });
    }
    if (path === '/api/send') {
      const send = body as { idempotencyKey: string; draftId: string };
      // The gateway keeps the first outcome per key: a repeat sends nothing.
      if (!this.sent.has(send.idempotencyKey) && !this.drafts.has(send.draftId)) {
        return Response.json({ error: 'DraftDoesNotExist', description: 'This draft no longer exists.' }, { status: 404 });
      }
      if (!this.sent.has(send.idempotencyKey)) {
        this.sent.set(send.idempotencyKey, { draftId: send.draftId });
        this.deliver({ subject: this.drafts.get(send.draftId)?.subject ?? '(sent)', at: 9e12, folder: 'sent', unread: false });
      }
      return Response.json({ outboxId: '1', state: 'sent', messageIdHeader: '<x@fake>', rejected: [], latestTxnId: this.latest, lastError: null });
    }
    return Response.json({ error: 'NoSuchMethod', description: `No ${method} ${path}` }, { status: 404 });
  }

  /** Another device takes every held send back (its Undo). */
  undoHeldElsewhere(): void {
    for (const outboxId of this.held.keys()) this.undone.add(outboxId);
    this.held.clear();
  }

  /** The held sends' windows end: each is sent (as the gateway's job would). */
  releaseHeld(): void {
    for (const [outboxId, held] of this.held) {
      this.released.add(outboxId);
      this.sent.set(held.idempotencyKey, { draftId: held.draftId });
      this.deliver({ subject: this.drafts.get(held.draftId)?.subject ?? '(sent)', at: 9e12, folder: 'sent', unread: false });
    }
    this.held.clear();
  }

  /** GET /api/drafts/:id: the draft as last saved (an attachment's name is its id + ".pdf"). */
  private draftView(id: string): Response {
    const draft = this.drafts.get(id);
    if (!draft) return Response.json({ error: 'DraftDoesNotExist', description: 'gone' }, { status: 404 });
    const attachments = (draft.attachmentIds ?? []).map((file) => ({ id: file, filename: `${file.slice(0, 4)}.pdf`, size: 1234, contentType: 'application/pdf' }));
    const messageId = [...this.draftOfMessage].find(([, of]) => of === id)?.[0] ?? null;
    return Response.json({
      id,
      version: draft.version,
      state: 'open',
      from: null,
      to: draft.to ?? [],
      cc: draft.cc ?? [],
      bcc: draft.bcc ?? [],
      subject: draft.subject,
      html: draft.html ?? null,
      text: null,
      inReplyTo: null,
      attachments,
      messageId,
      updatedAt: 1,
    });
  }

  /** A handler for a worker that dies mid-request: the first matching request is carried out, its answer never arrives. */
  dieDuring(method: string, path: string): Handler {
    let died = false;
    return (request) => {
      if (died || request.method !== method || request.path !== path) return undefined;
      died = true;
      this.route(request);
      this.announce();
      return new Promise<Response>(() => {});
    };
  }

  requestsTo(path: string): { method: string; path: string; body: unknown; headers: Headers }[] {
    return this.requests.filter((request) => request.path === path);
  }
}

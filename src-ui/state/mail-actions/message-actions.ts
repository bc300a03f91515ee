/**
 * Reading and writing, for the conversation view and the composer: threads, bodies,
 * drafts, sending, send notices and attachments, each one engine call (refusals become the
 * catalogue's TernError).
 */
import { zonedToUtc, type Schedule } from '../../../shared/send-time';
import { formatFullTime } from '../../kit/date-format';
import { TernError } from '../../../shared/errors';
import type { Address } from '../../../shared/api/mail';
import type { BodyProgress, BodyView, DraftEdit, DraftInput, DraftSaveReceipt, SendNotice, ThreadView, UploadParams } from '../../../shared/worker-mail-api';
import type { WorkerBridge } from '../engine-feeds';
import type { UiEngine } from '../engine-port';

export interface MessageActions {
  loadThread(params: { accountId: string; threadId: string }): Promise<ThreadView>;
  /** `whole`: a very large HTML body in full ("Show the whole message"). */
  loadBody(params: { accountId: string; messageId: string; whole?: boolean }): Promise<BodyView>;
  /** "Keep recent mail offline": the engine fetches the last `days` days' missing bodies (one run for every tab). */
  keepOffline(params: { accountIds: readonly string[]; days: number }, onProgress: (progress: BodyProgress) => void): Promise<BodyProgress>;
  /** The bodies of the threads around the cursor, fetched before they are opened (MailQueryService.prefetchNear); failures are the engine's. */
  prefetchNear(threads: readonly { accountId: string; threadId: string }[]): void;
  suggestAddresses(params: { accountIds: readonly string[]; prefix: string; limit: number }): Promise<readonly Address[]>;
  saveDraft(draft: DraftInput): Promise<DraftSaveReceipt>;
  /** A draft to edit, by its message in Drafts (Bcc and attachments included), or by the id a composer saved it under (composers restored after a reload). */
  openDraft(params: { accountId: string; messageId: string } | { accountId: string; draftId: string }): Promise<DraftEdit>;
  /** The composer's Discard: the draft leaves Drafts (the composer keeps its content for Undo). */
  discardDraft(params: { accountId: string; draftId: string }): Promise<{ commandId: string }>;
  send(params: { accountId: string; draftId: string; delayMs: number; subject?: string; schedule?: Schedule; requestReceipt?: boolean }): Promise<{ commandId: string }>;
  undoSend(commandId: string): Promise<boolean>;
  /** Forgets a send notice (sendNoticesAtom); a "may have been sent" one is taken as sent. */
  dismissSendNotice(notice: Pick<SendNotice, 'accountId' | 'noticeId'>): Promise<void>;
  /** "Send again" on a "may have been sent" notice: the person decided; it leaves after the undo window. */
  sendAgain(notice: Pick<SendNotice, 'accountId' | 'noticeId'>, delayMs: number): Promise<{ commandId: string }>;
  uploadAttachment(params: UploadParams, onProgress: (fraction: number) => void): Promise<{ attachmentId: string }>;
  /** Stops an upload by the id it was started with; false when it is no longer running. */
  cancelUpload(uploadId: string): Promise<boolean>;
  /** An attachment's bytes (preview, download, forward). */
  loadAttachment(params: { accountId: string; messageId: string; index: number }): Promise<Blob>;
  /** A sandboxed gateway address showing one previewable attachment (never a blob: of the app's origin). */
  previewAttachment(params: { accountId: string; messageId: string; index: number }): Promise<string>;
  /** The gateway's image proxy addresses of allowed remote images (the sender never sees the reader). */
  proxyRemoteImages(params: { accountId: string; urls: readonly string[] }): Promise<Readonly<Record<string, string>>>;
  /** Sends or declines a message's read receipt (the message gets $MDNSent); a refusal as the catalogue's TernError. */
  answerReceipt(params: { accountId: string; messageId: string; send: boolean }): Promise<void>;
}

export function createMessageActions(params: { engine: UiEngine; bridge: WorkerBridge }): MessageActions {
  const { engine, bridge } = params;
  return {
    loadThread: (thread) => engine.mail.getThread(thread),
    loadBody: (body) => engine.mail.getBody(body),
    async answerReceipt(params) {
      try {
        await engine.mail.answerReceipt(params);
      } catch (error) {
        throw TernError.from(error);
      }
    },
    keepOffline: (params, onProgress) => engine.mail.prefetchBodies(params, onProgress),
    prefetchNear: (threads) => void engine.mail.prefetchNear({ threads }).catch(() => undefined),
    suggestAddresses: (query) => engine.mail.suggestAddresses(query),
    saveDraft: (draft) => engine.commands.saveDraft({ draft }),
    async openDraft(draft) {
      try {
        return await engine.commands.openDraft(draft);
      } catch (error) {
        throw TernError.from(error);
      }
    },
    async send(sending) {
      const result = await engine.commands.send(sending);
      // The gateway's answer comes after the undo window, when the composer has gone: the toast says it left
      // (a scheduled one: when it will leave — the gateway has it now).
      const sendAt = sending.schedule ? zonedToUtc(sending.schedule.at, sending.schedule.timeZone) : null;
      const done = sendAt !== null ? ({ id: 'scheduled.scheduledFor', values: { when: formatFullTime(sendAt) } } as const) : ({ id: 'app.messageSent' } as const);
      bridge.trackCommand(result.commandId, { id: 'app.messageNotSent' }, done);
      return result;
    },
    undoSend: (commandId) => engine.commands.undoSend({ commandId }),
    async dismissSendNotice({ accountId, noticeId }) {
      await engine.commands.dismissSendNotice({ accountId, noticeId });
      await bridge.refreshSendNotices();
    },
    async sendAgain({ accountId, noticeId }, delayMs) {
      const result = await engine.commands.sendAgain({ accountId, noticeId, delayMs });
      bridge.trackCommand(result.commandId, { id: 'app.messageNotSent' }, { id: 'app.messageSent' });
      await bridge.refreshSendNotices();
      return result;
    },
    discardDraft: (params) => engine.commands.discardDraft(params),
    uploadAttachment: (upload, onProgress) => engine.commands.uploadAttachment(upload, onProgress),
    cancelUpload: (uploadId) => engine.commands.cancelUpload({ uploadId }),
    async loadAttachment(attachment) {
      try {
        return await engine.mail.getAttachment(attachment);
      } catch (error) {
        throw TernError.from(error);
      }
    },
    async previewAttachment(attachment) {
      try {
        return (await engine.mail.previewAttachment(attachment)).url;
      } catch (error) {
        throw TernError.from(error);
      }
    },
    async proxyRemoteImages(params) {
      try {
        return await engine.mail.proxyRemoteImages(params);
      } catch (error) {
        throw TernError.from(error);
      }
    },
  };
}

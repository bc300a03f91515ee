/**
 * Attachment uploads for drafts: straight to the account's gateway (not through the
 * outbox: a file is not a command, and a closed tab takes its File with it), with the
 * share sent pushed to the tab as it goes and a way to cancel one by the tab's id.
 */
import { MAX_ATTACHMENT_BYTES } from '../../shared/api/compose';
import { TernError } from '../../shared/errors';
import type { UploadParams } from '../../shared/worker-mail-api';
import type { MailGateway } from '../api/mail-gateway';

export interface AttachmentUploadsDeps {
  /** The account's gateway. */
  readonly gateway: (accountId: string) => Promise<Pick<MailGateway, 'upload'>>;
}

/** Progress is pushed to the tab in steps of this share (and always at the end): no message per network packet. */
const PROGRESS_STEP = 0.01;

const uploadIdPattern = /^[\w-]{1,64}$/;

export class AttachmentUploads {
  /** Uploads in flight that a tab named, by its id. */
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly deps: AttachmentUploadsDeps) {}

  async upload(params: UploadParams, onProgress: (fraction: number) => void): Promise<{ attachmentId: string }> {
    const { file, fileName, uploadId } = params;
    if (!(file instanceof Blob) || typeof fileName !== 'string' || (uploadId !== undefined && !uploadIdPattern.test(uploadId))) {
      throw new TernError('InvalidRequestData', { detail: { issues: ['file'] } });
    }
    // The gateway refuses it anyway; no need to send 100 MB first to hear so.
    if (file.size === 0 || file.size > MAX_ATTACHMENT_BYTES) throw new TernError('InvalidFileSize', { detail: { bytes: file.size, limitBytes: MAX_ATTACHMENT_BYTES } });
    const controller = new AbortController();
    if (uploadId !== undefined) {
      if (this.running.has(uploadId)) throw new TernError('InvalidRequestData', { detail: { reason: 'upload id in use', uploadId } });
      this.running.set(uploadId, controller);
    }
    // A tab that went away rejects its callback: the upload goes on regardless.
    const tell = (fraction: number) => void Promise.resolve(onProgress(fraction)).catch(() => undefined);
    let told = 0;
    tell(0);
    try {
      const gateway = await this.deps.gateway(params.accountId);
      const { files } = await gateway.upload({
        file,
        fileName,
        signal: controller.signal,
        onProgress: (fraction) => {
          if (fraction < 1 && fraction - told < PROGRESS_STEP) return;
          told = fraction;
          tell(fraction);
        },
      });
      const stored = files[0];
      if (!stored) throw new TernError('InternalServerError', { detail: { reason: 'no file in the upload reply' } });
      if (told < 1) tell(1);
      return { attachmentId: stored.id };
    } catch (error) {
      if (controller.signal.aborted) throw new TernError('OperationFailed', { description: 'The upload was cancelled.', detail: { cancelled: true } });
      throw error;
    } finally {
      if (uploadId !== undefined && this.running.get(uploadId) === controller) this.running.delete(uploadId);
    }
  }

  async cancel(params: { uploadId: string }): Promise<boolean> {
    const controller = typeof params?.uploadId === 'string' ? this.running.get(params.uploadId) : undefined;
    if (!controller) return false;
    this.running.delete(params.uploadId);
    controller.abort();
    return true;
  }
}

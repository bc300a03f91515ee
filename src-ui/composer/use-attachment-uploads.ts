/**
 * The composer's attachments and their uploads: each file is checked against the size and
 * name rules (upload-rules.ts), then uploaded through the engine with its progress; it can
 * be cancelled while it goes, retried or removed when it failed. The file itself stays in
 * the tab until the composer closes, so a failed or cancelled upload costs nothing typed
 * and can be sent again (also to another account, when From changes).
 */
import { useCallback, useEffect, useRef, useState, type MutableRefObject } from 'react';
import { TernError } from '../../shared/errors';
import type { UploadParams } from '../../shared/worker-mail-api';
import type { ComposerInitial } from './compose-initial';
import { checkUpload } from './upload-rules';
import { useLocale } from '../kit/i18n';

export interface AttachmentItem {
  readonly key: string;
  readonly fileName: string;
  readonly size: number;
  readonly status: 'uploading' | 'done' | 'failed' | 'rejected';
  /** Share sent, 0–1 (1 while the gateway stores what it got). */
  readonly progress: number;
  readonly attachmentId?: string;
  /** A rename note while it goes, the reason when it failed or was refused. */
  readonly message?: string;
  /** The account it was uploaded for (a From change uploads it again). */
  readonly accountId?: string;
  /** The running attempt's id: answers of an older attempt (retried, cancelled, other account) are ignored. */
  readonly uploadId?: string;
}

export type UploadFunction = (params: UploadParams, onProgress: (fraction: number) => void) => Promise<{ attachmentId: string }>;

export interface AttachmentUploads {
  readonly items: readonly AttachmentItem[];
  /** Whether the file of an item is still in the tab (a restored draft's are not): Retry needs it. */
  canRetry(key: string): boolean;
  /** Files from the picker, a drop or a paste. */
  addFiles(list: readonly File[]): void;
  /** Removes an item; one still uploading is cancelled. */
  remove(key: string): void;
  retry(key: string): void;
  /** From changed: uploads go again for the new account, the old attempts are cancelled. */
  moveToAccount(accountId: string): void;
}

let itemCounter = 0;
const nextItemKey = () => `a${++itemCounter}`;
/** 128 random bits in hex; not crypto.randomUUID, which a page served over plain http lacks. */
const newUploadId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
const clamp = (fraction: number) => Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));

export function useAttachmentUploads(params: {
  readonly initial: ComposerInitial;
  /** The account From names now (read when an upload starts). */
  readonly accountRef: MutableRefObject<string>;
  readonly onUpload: UploadFunction;
  readonly onCancelUpload?: (uploadId: string) => Promise<boolean>;
}): AttachmentUploads {
  const { initial, accountRef, onUpload, onCancelUpload } = params;
  const locale = useLocale();
  const [items, setItems] = useState<AttachmentItem[]>(() =>
    (initial.attachments ?? []).map((attachment) => ({
      key: nextItemKey(),
      fileName: attachment.fileName,
      size: attachment.size,
      status: 'done',
      progress: 1,
      attachmentId: attachment.attachmentId,
      accountId: initial.accountId,
    })),
  );
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const files = useRef(new Map<string, Blob>());
  const mounted = useRef(true);
  const cancelRef = useRef(onCancelUpload);
  cancelRef.current = onCancelUpload;

  const update = (key: string, change: Partial<AttachmentItem>) => setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
  /** A change from one attempt, applied only while it is still the item's attempt. */
  const updateAttempt = (key: string, uploadId: string, change: Partial<AttachmentItem>) => {
    if (!mounted.current) return;
    setItems((current) => current.map((item) => (item.key === key && item.uploadId === uploadId ? { ...item, ...change } : item)));
  };
  const cancelAttempt = (item: AttachmentItem | undefined) => {
    if (item?.status === 'uploading' && item.uploadId) void cancelRef.current?.(item.uploadId).catch(() => false);
  };

  const start = useCallback(
    (key: string, blob: Blob, fileName: string) => {
      const accountId = accountRef.current;
      const uploadId = newUploadId();
      update(key, { status: 'uploading', progress: 0, accountId, uploadId });
      onUpload({ accountId, file: blob, fileName, uploadId }, (fraction) => updateAttempt(key, uploadId, { progress: clamp(fraction) })).then(
        ({ attachmentId }) => updateAttempt(key, uploadId, { status: 'done', progress: 1, attachmentId }),
        (cause: unknown) => updateAttempt(key, uploadId, { status: 'failed', message: TernError.from(cause).message }),
      );
    },
    [onUpload, accountRef],
  );

  const addFiles = useCallback(
    (list: readonly File[]) => {
      const kept = itemsRef.current.filter((item) => item.status !== 'rejected');
      let count = kept.length;
      let bytes = kept.reduce((sum, item) => sum + item.size, 0);
      const added: AttachmentItem[] = [];
      const starts: (() => void)[] = [];
      for (const file of list) {
        const check = checkUpload({ name: file.name, size: file.size, attachedCount: count, attachedBytes: bytes, locale });
        const key = nextItemKey();
        if (!check.ok) {
          added.push({ key, fileName: file.name, size: file.size, status: 'rejected', progress: 0, message: check.message });
          continue;
        }
        count++;
        bytes += file.size;
        files.current.set(key, file);
        added.push({ key, fileName: check.fileName, size: file.size, status: 'uploading', progress: 0, ...(check.note ? { message: check.note } : {}) });
        starts.push(() => start(key, file, check.fileName));
      }
      setItems((current) => [...current, ...added]);
      for (const go of starts) go();
    },
    [start, locale],
  );

  // A forward brings the original's attachments: fetch each, then upload it (once, also under StrictMode).
  const pendingStarted = useRef(false);
  useEffect(() => {
    if (pendingStarted.current) return;
    pendingStarted.current = true;
    for (const part of initial.pendingAttachments ?? []) {
      const key = nextItemKey();
      setItems((current) => [...current, { key, fileName: part.fileName, size: part.size, status: 'uploading', progress: 0 }]);
      part.load().then(
        (blob) => {
          if (!mounted.current) return;
          const check = checkUpload({ name: part.fileName, size: blob.size, attachedCount: 0, attachedBytes: 0, locale });
          if (!check.ok) {
            update(key, { status: 'rejected', message: check.message });
            return;
          }
          files.current.set(key, blob);
          start(key, blob, check.fileName);
        },
        (cause: unknown) => mounted.current && update(key, { status: 'failed', message: TernError.from(cause).message }),
      );
    }
    // Once, when the composer opens.
  }, []);

  // Uploads nobody can attach any more (the composer closed) are stopped.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      for (const item of itemsRef.current) cancelAttempt(item);
    };
  }, []);

  const remove = (key: string) => {
    cancelAttempt(itemsRef.current.find((item) => item.key === key));
    files.current.delete(key);
    setItems((current) => current.filter((item) => item.key !== key));
  };

  const retry = (key: string) => {
    const item = itemsRef.current.find((candidate) => candidate.key === key);
    const blob = files.current.get(key);
    if (!item || !blob || item.status === 'uploading') return;
    update(key, { message: undefined });
    start(key, blob, item.fileName);
  };

  const moveToAccount = (accountId: string) => {
    for (const item of itemsRef.current) {
      const blob = files.current.get(item.key);
      if (item.status === 'rejected' || !blob || item.accountId === accountId) continue;
      cancelAttempt(item);
      start(item.key, blob, item.fileName);
    }
  };

  return { items, canRetry: (key) => files.current.has(key), addFiles, remove, retry, moveToAccount };
}

/** Attachment rules of spec §5 and §9 (what gets a paperclip, what shows inline). */

/** Attachment icon threshold (§9): an inline part this size or smaller is not a "real" attachment. */
export const PAPERCLIP_MIN_INLINE_BYTES = 12 * 1024;
/** Inline image bounds (§9): above 512 bytes and below 30 MB. */
export const INLINE_IMAGE_MIN_BYTES = 512;
export const INLINE_IMAGE_MAX_BYTES = 30 * 1024 * 1024;
const INLINE_IMAGE_EXTENSIONS = new Set(['jpg', 'bmp', 'gif', 'png', 'jpeg']);

export interface AttachmentFacts {
  readonly contentId: string | null | undefined;
  readonly size: number;
}

/** Paperclip icon (§5): the part has no contentId, or is over 12 KB (a big inline image is still worth saving). */
export function showsPaperclip(attachment: AttachmentFacts): boolean {
  return !attachment.contentId || attachment.size > PAPERCLIP_MIN_INLINE_BYTES;
}

/** Whether any of a message's or thread's attachments earns the paperclip. */
export function anyShowsPaperclip(attachments: readonly AttachmentFacts[]): boolean {
  return attachments.some(showsPaperclip);
}

/** Inline image (§5): jpg, bmp, gif, png or jpeg, above 512 bytes and below 30 MB. */
export function isInlineImage(params: { readonly filename: string; readonly size: number }): boolean {
  const extension = params.filename.slice(params.filename.lastIndexOf('.') + 1).toLowerCase();
  return (
    params.filename.includes('.') &&
    INLINE_IMAGE_EXTENSIONS.has(extension) &&
    params.size > INLINE_IMAGE_MIN_BYTES &&
    params.size < INLINE_IMAGE_MAX_BYTES
  );
}

/**
 * Object URLs for attachment bytes. The preview re-types the Blob with the type from
 * the preview allow-list (shared/preview-rules.ts): the browser then treats the bytes
 * as that kind of media and nothing else, whatever the sender declared. An HTML part
 * can never become a same-origin page this way, because HTML is not on the list.
 */

export function typedObjectUrl(blob: Blob, type: string): string {
  return URL.createObjectURL(blob.type === type ? blob : new Blob([blob], { type }));
}

/** Saves a Blob under a file name through a temporary link (the gateway is not asked twice). */
export function saveBlob(blob: Blob, fileName: string): void {
  // octet-stream: a download, never something the browser would render in a tab.
  const url = typedObjectUrl(blob, 'application/octet-stream');
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the next task; the URL is no longer needed after that.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

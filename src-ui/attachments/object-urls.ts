/**
 * Saving attachment bytes as a file. Only downloads use object URLs, typed
 * `application/octet-stream` so the browser saves them and never renders them; previews
 * come from the gateway, sandboxed (AttachmentPreview.tsx, issue point 12).
 */

/** Saves a Blob under a file name through a temporary link (the gateway is not asked twice). */
export function saveBlob(blob: Blob, fileName: string): void {
  // octet-stream: a download, never something the browser would render in a tab.
  const url = URL.createObjectURL(blob.type === 'application/octet-stream' ? blob : new Blob([blob], { type: 'application/octet-stream' }));
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

/** The recovery codes as a plain-text file to keep (Settings → Security's "Download as .txt"). */
export function recoveryCodesText(params: { title: string; note: string; codes: readonly string[] }): string {
  return [params.title, '', ...params.codes.map((code, index) => `${String(index + 1).padStart(2, ' ')}. ${code}`), '', params.note, ''].join('\r\n');
}

/** Saves text as a download (a text/plain blob: nothing active in the app's origin). */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * File sizes for people (spec §9: units B, KB, MB, GB, one decimal from MB up).
 * Binary multiples, as mail clients and file managers on the web show them.
 */
const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

export function formatFileSize(bytes: number): string {
  const size = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  if (size < KB) return `${Math.round(size)} B`;
  if (size < MB) {
    const kb = Math.round(size / KB);
    // 1023.6 KB would round to "1024 KB"; it reads better as the next unit.
    return kb < 1024 ? `${kb} KB` : '1.0 MB';
  }
  if (size < GB) {
    const mb = Math.round((size / MB) * 10) / 10;
    return mb < 1024 ? `${mb.toFixed(1)} MB` : '1.0 GB';
  }
  return `${(size / GB).toFixed(1)} GB`;
}

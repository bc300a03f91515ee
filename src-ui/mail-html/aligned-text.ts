/**
 * Plain-text mail lines whose layout is in their spaces: a table lined up in columns, a
 * block of indented code. In the reading font (proportional) their columns drift apart;
 * set in a monospace font they read as the sender typed them. Only runs of two or more
 * such lines count, so a lone indented line or a sentence with two spaces after its full
 * stop stays in the reading font.
 */

/** Indented by four spaces or a tab (code), or with a gap of two or more spaces or a tab between words (columns), not after a sentence's end. */
const ALIGNED_LINE = /^(?: {4}|\t)\S|[^\s.!?:;,]( {2,}|\t)\S/;

export interface TextRun {
  readonly text: string;
  /** Lines laid out with spaces: shown in a monospace font. */
  readonly aligned: boolean;
}

/** Splits text into runs of ordinary and aligned lines; the runs joined with "\n" give the text back. */
export function alignedRuns(text: string): TextRun[] {
  const lines = text.split('\n');
  const aligned = lines.map((line) => ALIGNED_LINE.test(line));
  // Only runs of at least two aligned lines are kept as aligned.
  for (let start = 0; start < lines.length; ) {
    let end = start;
    while (end < lines.length && aligned[end]) end++;
    if (end - start === 1) aligned[start] = false;
    start = Math.max(end, start + 1);
  }
  const runs: { text: string[]; aligned: boolean }[] = [];
  lines.forEach((line, index) => {
    const last = runs.at(-1);
    if (last && last.aligned === aligned[index]) last.text.push(line);
    else runs.push({ text: [line], aligned: aligned[index] ?? false });
  });
  return runs.map((run) => ({ text: run.text.join('\n'), aligned: run.aligned }));
}

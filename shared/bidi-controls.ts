/**
 * Unicode bidi controls in text a sender chose (file names above all). An override such
 * as U+202E RIGHT-TO-LEFT OVERRIDE makes `invoice\u202Egpj.exe` read as "invoiceexe.jpg"
 * (issue point 15): the visible order no longer tells the real extension. Removed, the
 * name reads in its stored order, `invoicegpj.exe`, which is what the system opens it as.
 */

/** LRM, RLM, ALM, the embeddings/overrides (U+202A–U+202E) and the isolates (U+2066–U+2069). */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The text with every bidi control removed (its characters stay in their stored order). */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

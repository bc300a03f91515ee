/**
 * Folding for search, the one function the gateway's FTS index and the engine's index
 * both apply to the text they index and to the query, so "malgorzata" finds "Małgorzata"
 * on either side. NFKD splits accented letters (é → e + ◌́) and compatibility forms
 * (ﬁ → fi, ² → 2), combining marks are dropped, and the letters Unicode does not
 * decompose (ł, ø, æ, ß, đ, ı …) are spelled as a person without the key would type them.
 * Case is left alone: both indexes lowercase on their own.
 */

/** Letters without a decomposition, as they are written in plain Latin (Gmail and ICU's Latin-ASCII agree on these). */
const LETTERS: Readonly<Record<string, string>> = {
  ł: 'l', Ł: 'L', ø: 'o', Ø: 'O', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ß: 'ss', ẞ: 'SS',
  đ: 'd', Đ: 'D', ð: 'd', Ð: 'D', þ: 'th', Þ: 'TH', ı: 'i', ħ: 'h', Ħ: 'H', ŧ: 't', Ŧ: 'T',
  ŀ: 'l', Ŀ: 'L', ĸ: 'k', ŋ: 'n', Ŋ: 'N', ƒ: 'f', ſ: 's',
};

const UNDECOMPOSED = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'gu');
const MARKS = /\p{M}/gu;
// Most text is ASCII: nothing to fold.
const ASCII = /^[\x00-\x7f]*$/;

/** The text with diacritics and the letters above folded to plain Latin; ASCII comes back as it is. */
export function foldForSearch(text: string): string {
  if (ASCII.test(text)) return text;
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(UNDECOMPOSED, (letter) => LETTERS[letter] ?? letter);
}

/**
 * Subject normalisation for the threading fallback: "Re: AW: [team] Fwd: Budget" and
 * "budget" are the same conversation. Reply and forward prefixes of the common mail
 * clients' languages are removed, list tags too, case and spacing are folded.
 */

// re, fw, fwd, aw (de), wg (de), sv (nordic), vs (fi), antw (nl), rif/r (it), tr (fr),
// ref, odp (pl), res (pt), enc (pt), ynt (tr), vb (nl), and the CJK ones. "Re[2]:" and
// "RE :" (French spacing) count too.
const PREFIX = /^\s*(?:(?:re|fwd?|aw|wg|sv|vs|antw|rif|r|tr|ref|odp|res|enc|ynt|vb)(?:\s*\[\d+\]|\s*\(\d+\))?\s*[:：]|回复[:：]|回覆[:：]|答复[:：]|转发[:：]|轉寄[:：])\s*/i;
// A leading list tag like "[project-x]" is dropped only when more text follows it.
const LIST_TAG = /^\s*\[[^\]]{1,40}\]\s+(?=\S)/;

export interface SubjectKey {
  /** Lowercased subject without prefixes or list tags, spaces collapsed; '' when nothing is left. */
  readonly key: string;
  /** Whether a reply or forward prefix was found. */
  readonly isReply: boolean;
}

/**
 * The key keeps this many characters: it is an index key (threads_subject), and a PostgreSQL
 * index entry holds at most 2,704 bytes (a longer subject failed the mirror's batch there).
 * 500 characters are at most 2,000 bytes; two subjects equal that far are one conversation.
 */
const MAX_KEY_CHARS = 500;

export function subjectKey(subject: string): SubjectKey {
  let rest = subject;
  let isReply = false;
  for (let guard = 0; guard < 20; guard++) {
    const prefix = PREFIX.exec(rest);
    if (prefix) {
      rest = rest.slice(prefix[0].length);
      isReply = true;
      continue;
    }
    const tag = LIST_TAG.exec(rest);
    if (tag) {
      rest = rest.slice(tag[0].length);
      continue;
    }
    break;
  }
  const key = rest.replace(/\s+/g, ' ').trim().toLowerCase();
  return { key: key.length <= MAX_KEY_CHARS ? key : [...key].slice(0, MAX_KEY_CHARS).join('').trimEnd(), isReply };
}

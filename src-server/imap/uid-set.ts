/**
 * IMAP sequence sets of UIDs ("1:5,8,10:12"), built from numbers only: user data never
 * reaches a command string.
 */

/** A compact set from UIDs in any order. */
export function compactUidSet(uids: Iterable<number>): string {
  const sorted = [...new Set(uids)].filter((uid) => Number.isInteger(uid) && uid > 0).sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i]!;
    let end = start;
    while (sorted[i + 1] === end + 1) end = sorted[++i]!;
    ranges.push(start === end ? String(start) : `${start}:${end}`);
    i++;
  }
  return ranges.join(',');
}

/** UIDs of a compact set (as ESEARCH ALL returns it), ascending. "*" is not allowed here. */
export function expandUidSet(set: string): number[] {
  const uids: number[] = [];
  let ascending = true;
  for (const range of set.split(',')) {
    if (!range) continue;
    const [from, to = from] = range.split(':').map(Number) as [number, number?];
    if (!Number.isInteger(from) || !Number.isInteger(to)) throw new Error(`Not a UID set: ${set.slice(0, 80)}`);
    const low = Math.min(from, to);
    const high = Math.max(from, to);
    if (uids.length > 0 && low <= uids[uids.length - 1]!) ascending = false;
    for (let uid = low; uid <= high; uid++) uids.push(uid);
  }
  // Servers send the set ascending: sorting (tens of thousands of UIDs, every sync step) is only for those that do not.
  return ascending ? uids : uids.sort((a, b) => a - b);
}

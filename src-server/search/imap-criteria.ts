import type { SearchObject } from 'imapflow';
import type { ParsedSearch } from './search-query';

/**
 * ANDs criteria in one imapflow SearchObject. An object holds each key once, so a second
 * `text` (two words) goes one level down: imapflow compiles a one-element `or` to its
 * bare operand, and the operands of a SEARCH are ANDed. (Where `or` is taken by a
 * to-or-cc term, a double NOT does the same.) imapflow writes the command; no string
 * of ours is ever spliced into it.
 */
export function allOf(parts: readonly SearchObject[]): SearchObject {
  const merged: SearchObject = {};
  const nested: SearchObject[] = [];
  for (const part of parts) {
    if (Object.keys(part).some((key) => key in merged)) nested.push(part);
    else Object.assign(merged, part);
  }
  if (nested.length === 0) return merged;
  const rest = allOf(nested);
  return 'or' in merged ? { ...merged, not: { not: rest } } : { ...merged, or: [rest] };
}

/**
 * The server-side form of a parsed search (IMAP SEARCH is substring matching, so words
 * and phrases both become plain strings). `any` words use TEXT — headers and body — which
 * is what finds body words the mirror never indexed. Dates are whole UTC days, as the
 * local search uses them: SINCE is inclusive like `after:`, BEFORE exclusive like `before:`.
 */
export function imapCriteria(search: ParsedSearch): SearchObject {
  const parts: SearchObject[] = [];
  for (const term of search.terms) {
    if (term.field === 'any') parts.push({ text: term.text });
    else if (term.field === 'from') parts.push({ from: term.text });
    else if (term.field === 'subject') parts.push({ subject: term.text });
    else parts.push({ or: [{ to: term.text }, { cc: term.text }] });
  }
  if (search.unread !== null) parts.push({ seen: !search.unread });
  if (search.starred !== null) parts.push({ flagged: search.starred });
  // No IMAP key means "has an attachment"; a multipart/mixed body is the usual sign of one.
  if (search.hasAttachment) parts.push({ header: { 'content-type': 'multipart/mixed' } });
  for (const keyword of search.keywords) parts.push({ keyword });
  if (search.after !== null) parts.push({ since: new Date(search.after) });
  if (search.before !== null) parts.push({ before: new Date(search.before) });
  return parts.length > 0 ? allOf(parts) : { all: true };
}

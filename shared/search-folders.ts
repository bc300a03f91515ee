import type { SpecialUse } from './api/mail';

/**
 * Folder rules of search, shared so the gateway's search and the worker's local search
 * answer `in:` and the default scope the same way.
 */

/** `in:` words that name a special folder whatever it is called on the server. */
export const SEARCH_SPECIAL_NAMES: Readonly<Record<string, SpecialUse>> = {
  inbox: 'inbox',
  sent: 'sent',
  drafts: 'drafts',
  draft: 'drafts',
  trash: 'trash',
  bin: 'trash',
  spam: 'junk',
  junk: 'junk',
  archive: 'archive',
};

/** Left out of a search unless asked for, as Gmail does: what was thrown away is not an answer. */
export const SEARCH_EXCLUDED_BY_DEFAULT: readonly SpecialUse[] = ['trash', 'junk'];

/** The ListScope a mailbox address stands for (folder, unified special folder, label, or a search). */
import type { ListScope } from '../../shared/worker-mail-api';
import type { MailSearch, UnifiedRole } from './search-params';

export type MailboxAddress =
  | { readonly kind: 'unified'; readonly role: UnifiedRole }
  | { readonly kind: 'folder'; readonly accountId: string; readonly folderId: string }
  /** One account's threads with a label, by its keyword. */
  | { readonly kind: 'label'; readonly accountId: string; readonly label: string };

/** `in` of a search: absent means the folder's account in a folder, every account elsewhere. */
export function searchAccountIds(mailbox: MailboxAddress, searchIn: string | undefined, accountIds: readonly string[]): readonly string[] {
  if (searchIn === 'all') return accountIds;
  if (searchIn && accountIds.includes(searchIn)) return [searchIn];
  if (!searchIn && mailbox.kind !== 'unified' && accountIds.includes(mailbox.accountId)) return [mailbox.accountId];
  return accountIds;
}

/** The cache's search (or the gateway's, `server`) of `q` over the accounts `in` names. */
export function searchScopeFor(mailbox: MailboxAddress, search: MailSearch & { readonly q: string }, accountIds: readonly string[]): ListScope {
  return { kind: 'search', accountIds: searchAccountIds(mailbox, search.in, accountIds), query: search.q, ...(search.server ? { server: true } : {}) };
}

/**
 * `priority`: the accounts whose priority inbox is on (issue 17 point 4); their Inbox — a
 * folder that is one (`inbox`) or the unified one — lists its Important section first.
 */
export function listScopeFor(mailbox: MailboxAddress, search: MailSearch, accountIds: readonly string[], priority: { readonly accounts: readonly string[]; readonly inbox?: boolean } = { accounts: [] }): ListScope {
  if (search.q) return searchScopeFor(mailbox, { ...search, q: search.q }, accountIds);
  if (mailbox.kind === 'unified') {
    const sectioned = mailbox.role === 'inbox' ? priority.accounts.filter((accountId) => accountIds.includes(accountId)) : [];
    return { kind: 'unified', accountIds, role: mailbox.role, ...(sectioned.length > 0 ? { priority: sectioned } : {}) };
  }
  if (mailbox.kind === 'label') return { kind: 'label', accountId: mailbox.accountId, label: mailbox.label };
  const sectioned = priority.inbox === true && priority.accounts.includes(mailbox.accountId);
  return { kind: 'folder', accountId: mailbox.accountId, folderId: mailbox.folderId, ...(sectioned ? { priority: true } : {}) };
}

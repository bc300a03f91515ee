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

export function listScopeFor(mailbox: MailboxAddress, search: MailSearch, accountIds: readonly string[]): ListScope {
  if (search.q) return { kind: 'search', accountIds: searchAccountIds(mailbox, search.in, accountIds), query: search.q, ...(search.server ? { server: true } : {}) };
  if (mailbox.kind === 'unified') return { kind: 'unified', accountIds, role: mailbox.role };
  if (mailbox.kind === 'label') return { kind: 'label', accountId: mailbox.accountId, label: mailbox.label };
  return { kind: 'folder', accountId: mailbox.accountId, folderId: mailbox.folderId };
}

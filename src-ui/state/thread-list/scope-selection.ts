/**
 * Gmail's "Select all N conversations": once every loaded row is checked and the list
 * holds more, the mailbox offers the whole list; chosen, commands go to the engine by
 * scope (runOnScope) instead of by thread. Pure: what the banner shows.
 */
import type { ListScope } from '../../../shared/worker-mail-api';
import type { HeldList } from './list-patch';
import type { Selection } from './selection';

export type SelectAllState =
  | { readonly kind: 'none' }
  /** Every loaded row is checked and there are more: offer them all. */
  | { readonly kind: 'offer'; readonly selected: number; readonly total: number }
  /** The whole list is selected. */
  | { readonly kind: 'all'; readonly total: number };

export function selectAllState(params: { held: HeldList | null; selection: Selection; allInScope: boolean }): SelectAllState {
  const { held, selection } = params;
  const total = held?.total ?? 0;
  if (params.allInScope) return { kind: 'all', total };
  if (!held || held.rows.length === 0 || selection.size >= total) return { kind: 'none' };
  const everyLoaded = held.rows.every((row) => selection.has(row.key));
  return everyLoaded ? { kind: 'offer', selected: selection.size, total } : { kind: 'none' };
}

/** The accounts a scope's threads belong to (a move over the whole list needs exactly one). */
export function accountsOfScope(scope: ListScope): readonly string[] {
  return scope.kind === 'folder' || scope.kind === 'label' ? [scope.accountId] : scope.accountIds;
}

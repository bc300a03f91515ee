import { SEARCH_EXCLUDED_BY_DEFAULT as EXCLUDED_BY_DEFAULT, SEARCH_SPECIAL_NAMES as SPECIAL_NAMES } from '../../shared/search-folders';
import type { FolderRow } from '../mirror/mirror-rows';


/** Folders an `in:` value names: `anywhere`, a special name, or a folder's path or name (case-insensitive). */
export function foldersNamed(rows: readonly FolderRow[], value: string): FolderRow[] {
  const wanted = value.toLowerCase();
  if (wanted === 'anywhere') return [...rows];
  const special = SPECIAL_NAMES[wanted];
  const bySpecial = special ? rows.filter((row) => row.special_use === special) : [];
  if (bySpecial.length > 0) return bySpecial;
  return rows.filter((row) => row.path.toLowerCase() === wanted || row.name.toLowerCase() === wanted);
}

/**
 * The folders a search looks in: those its `in:` operators name (any of them), within the
 * folder the request is limited to; without either, every folder but Trash and Junk. An
 * `in:` that names no folder leaves nothing to search (no error: the person may be typing).
 */
export function searchScope(rows: readonly FolderRow[], params: { inValues: readonly string[]; folderId: number | null }): FolderRow[] {
  let scope: FolderRow[];
  if (params.inValues.length > 0) {
    const named = new Map<number, FolderRow>();
    for (const value of params.inValues) for (const row of foldersNamed(rows, value)) named.set(row.id, row);
    scope = [...named.values()];
  } else if (params.folderId !== null) {
    scope = [...rows];
  } else {
    scope = rows.filter((row) => !row.special_use || !EXCLUDED_BY_DEFAULT.includes(row.special_use));
  }
  return params.folderId === null ? scope : scope.filter((row) => row.id === params.folderId);
}

/**
 * The composers open in this tab, by the draft each is saved as, kept in sessionStorage: a
 * reload (or a tab restored by the browser) opens them again, with their content read back
 * from the engine by draft id. Per tab, as the browser keeps sessionStorage; only ids and
 * the kind of message are stored here, never what was written.
 */
import type { ComposeMode } from './compose-initial';

export interface OpenComposer {
  readonly accountId: string;
  /** The id the composer saves the draft under (DraftInput.draftId). */
  readonly draftId: string;
  /** What the composer was writing (its title: New message, Reply, Forward…). */
  readonly mode: ComposeMode;
  /** Folded down to its title bar. */
  readonly minimized: boolean;
}

export const OPEN_COMPOSERS_KEY = 'tern.openComposers';

const MODES: readonly ComposeMode[] = ['new', 'reply', 'replyAll', 'forward'];
/** The ids the engine takes: a local one or the gateway's number. */
const DRAFT_ID = /^(?:local-[0-9a-f-]{36}|[1-9]\d{0,15})$/;

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const isOpenComposer = (value: unknown): value is OpenComposer => {
  const entry = value as Partial<OpenComposer> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.accountId === 'string' &&
    entry.accountId.length > 0 &&
    typeof entry.draftId === 'string' &&
    DRAFT_ID.test(entry.draftId) &&
    MODES.includes(entry.mode as ComposeMode) &&
    (entry.minimized === undefined || typeof entry.minimized === 'boolean')
  );
};

/** This tab's storage, or null where there is none (private modes may refuse it). */
export function tabStorage(): Store | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** The composers to open again; entries that do not parse are left out. */
export function readOpenComposers(storage: Store | null): OpenComposer[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(OPEN_COMPOSERS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isOpenComposer).map(({ accountId, draftId, mode, minimized }) => ({ accountId, draftId, mode, minimized: minimized === true })) : [];
  } catch {
    return [];
  }
}

export function writeOpenComposers(storage: Store | null, composers: readonly OpenComposer[]): void {
  try {
    if (composers.length === 0) storage?.removeItem(OPEN_COMPOSERS_KEY);
    else storage?.setItem(OPEN_COMPOSERS_KEY, JSON.stringify(composers));
  } catch {
    // Full or refused: the draft is saved all the same, only not reopened by itself.
  }
}

/** An id for a new draft, named by the tab so it is known (and stored above) before the engine answers. */
export const newDraftId = (): string => `local-${crypto.randomUUID()}`;

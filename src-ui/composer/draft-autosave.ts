/**
 * Drafts save themselves: a change schedules a save after a quiet spell (~1.5 s); saves
 * run one at a time, each with the id the previous one returned, and only when the
 * draft differs from what was last saved. `flush` saves at once (close, send).
 *
 * The draft is produced when the save runs, not at every keystroke: producing it
 * sanitises the body, which is too much work to repeat per key.
 *
 * Each save names the revision the previous one made (or the draft opened with): when
 * another tab saved or sent the draft meanwhile, the engine refuses it and the draft is in
 * conflict. Then nothing more is saved over it until the person chooses (keep both: this
 * version becomes a draft of its own; or take the other version); a composer that goes away
 * still in conflict keeps its text as a draft of its own, so nothing typed is lost.
 */
import { TernError } from '../../shared/errors';
import type { DraftInput, DraftSaveReceipt } from '../../shared/worker-mail-api';

/** Errors that mean "the draft changed elsewhere" rather than "the save failed". */
export const CONFLICT_ERRORS: ReadonlySet<string> = new Set(['InvalidDraftVersion', 'InvalidUpdateDraft', 'DraftAlreadySent']);

/** Why a draft is in conflict: another tab or device saved it, or it was sent. */
export interface DraftConflict {
  readonly reason: 'edited' | 'sent';
  /** The gateway refused a save as stale and the engine kept this version as a new draft (CommandStatus.keptAs). */
  readonly keptAs?: string;
}

export type SaveStatus =
  | { readonly status: 'idle' }
  | { readonly status: 'saving' }
  /** Recorded by the engine (on this device); `commandId` is the save whose gateway outcome decides "saved". */
  | { readonly status: 'saved'; readonly at: number; readonly commandId?: string }
  | { readonly status: 'failed'; readonly message: string }
  | { readonly status: 'conflict'; readonly conflict: DraftConflict };

/** Makes the draft as it stands; null when there is nothing worth saving yet. */
export type DraftProducer = () => DraftInput | null;

export interface DraftAutosaveOptions {
  readonly delayMs: number;
  readonly save: (draft: DraftInput) => Promise<DraftSaveReceipt>;
  readonly onStatus: (status: SaveStatus) => void;
  /** The id of a draft being reopened. */
  readonly draftId?: string;
  /** Its revision as it was opened (DraftEdit.revision). */
  readonly revision?: number;
  readonly now?: () => number;
}

/** A draft without its id, for comparing contents. */
const contentKey = (draft: DraftInput) => JSON.stringify({ ...draft, draftId: undefined });

export class DraftAutosave {
  private draftIdValue: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private producer: DraftProducer | undefined;
  private savedKey: string | undefined;
  private running: Promise<void> = Promise.resolve();
  /** Thrown away (Discard): nothing is saved any more. */
  private stopped = false;
  /** The revision the next save writes over (undefined: a new draft, or a tab without revisions). */
  private revision: number | undefined;
  private conflictValue: DraftConflict | null = null;

  constructor(private readonly options: DraftAutosaveOptions) {
    this.draftIdValue = options.draftId;
    this.revision = options.draftId === undefined ? undefined : options.revision;
  }

  /** Set while the draft is in conflict: nothing is saved over it until the person chooses. */
  get conflict(): DraftConflict | null {
    return this.conflictValue;
  }

  /** The engine told of a conflict after the save was recorded (the gateway refused it as stale). */
  markConflict(conflict: DraftConflict): void {
    this.cancelTimer();
    this.conflictValue = conflict;
    this.options.onStatus({ status: 'conflict', conflict });
  }

  /**
   * "Keep both": this version goes on as a draft of its own — the one the engine already
   * kept (`keptAs`), or a new one — and the other stays as it is. Resolves once it is saved.
   */
  async keepBoth(): Promise<void> {
    const keptAs = this.conflictValue?.keptAs;
    this.conflictValue = null;
    this.draftIdValue = keptAs;
    // The kept copy was written by the engine without a revision of its own: 0 is where it starts.
    this.revision = keptAs === undefined ? undefined : 0;
    this.savedKey = undefined;
    await this.saveLatest();
  }

  get draftId(): string | undefined {
    return this.draftIdValue;
  }

  /** Whether a save is waiting for the quiet spell to end. */
  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  /** Starts over for another account: the next save creates a new draft there. */
  forgetDraft(): void {
    this.draftIdValue = undefined;
    this.revision = undefined;
    this.savedKey = undefined;
  }

  /** Marks the content as already saved (a reopened draft needs no save until it changes). */
  markSaved(draft: DraftInput): void {
    this.savedKey = contentKey(draft);
  }

  /** A change: save what `produce` makes once typing pauses. */
  schedule(produce: DraftProducer): void {
    if (this.stopped) return;
    this.producer = produce;
    // In conflict: the text is held (a close keeps it as its own draft), not saved over the other version.
    if (this.conflictValue) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.saveLatest().catch(() => undefined);
    }, this.options.delayMs);
  }

  /** Saves again now even if the content did not change (the engine gave the last save up). */
  retry(produce: DraftProducer): Promise<string | undefined> {
    this.savedKey = undefined;
    return this.flush(produce);
  }

  /** Saves now if anything is unsaved; resolves with the draft id once every save is done. Rejects when the save fails. */
  async flush(produce?: DraftProducer): Promise<string | undefined> {
    if (produce) this.producer = produce;
    this.cancelTimer();
    await this.saveLatest();
    return this.draftIdValue;
  }

  /**
   * The draft is thrown away (Discard): nothing more is saved, not even on `dispose`; a save
   * already running finishes first, so the discard that follows comes after it. Resolves
   * with the draft's id (undefined when it was never saved).
   */
  async stop(): Promise<string | undefined> {
    this.stopped = true;
    this.cancelTimer();
    this.producer = undefined;
    await this.running.catch(() => undefined);
    return this.draftIdValue;
  }

  /**
   * The composer goes away: a save still waiting runs now, so nothing typed is lost. The
   * draft is produced here, while the composer's editor is still there: the save itself
   * runs a tick later, when an unmounted editor would read as empty.
   */
  dispose(): void {
    if (this.conflictValue) {
      // Closed without choosing: this version is kept as a draft of its own, never dropped.
      const draft = this.producer?.() ?? null;
      if (draft) this.producer = () => draft;
      void this.keepBoth().catch(() => undefined);
      return;
    }
    if (this.timer === undefined) return;
    this.cancelTimer();
    const draft = this.producer?.() ?? null;
    this.producer = () => draft;
    void this.saveLatest().catch(() => undefined);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Queues a save of the newest content behind any save in flight. */
  private saveLatest(): Promise<void> {
    const next = this.running
      .catch(() => undefined)
      .then(async () => {
        if (this.stopped) return;
        // A send or close in conflict must not go on as if saved: the person chooses first.
        if (this.conflictValue) throw new TernError('InvalidDraftVersion', { detail: this.conflictValue });
        const draft = this.producer?.() ?? null;
        if (!draft) return;
        const key = contentKey(draft);
        if (key === this.savedKey && this.draftIdValue !== undefined) return;
        this.options.onStatus({ status: 'saving' });
        try {
          const base = this.draftIdValue !== undefined && this.revision !== undefined ? { baseRevision: this.revision } : {};
          const receipt = await this.options.save({ ...draft, draftId: this.draftIdValue, ...base });
          this.draftIdValue = receipt.draftId;
          this.revision = receipt.revision;
          this.savedKey = key;
          this.options.onStatus({ status: 'saved', at: (this.options.now ?? Date.now)(), ...(receipt.commandId ? { commandId: receipt.commandId } : {}) });
        } catch (cause) {
          const name = (cause as { name?: unknown } | null)?.name;
          if (typeof name === 'string' && CONFLICT_ERRORS.has(name)) {
            const reason = (TernError.from(cause).detail as { reason?: unknown } | undefined)?.reason === 'sent' || name === 'DraftAlreadySent' ? 'sent' : 'edited';
            this.markConflict({ reason });
          } else {
            this.options.onStatus({ status: 'failed', message: cause instanceof Error ? cause.message : String(cause) });
          }
          throw cause;
        }
      });
    this.running = next;
    return next;
  }
}

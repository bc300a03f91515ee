/**
 * Drafts save themselves: a change schedules a save after a quiet spell (~1.5 s); saves
 * run one at a time, each with the id the previous one returned, and only when the
 * draft differs from what was last saved. `flush` saves at once (close, send).
 *
 * The draft is produced when the save runs, not at every keystroke: producing it
 * sanitises the body, which is too much work to repeat per key.
 */
import type { DraftInput } from '../../shared/worker-mail-api';

export type SaveStatus =
  | { readonly status: 'idle' }
  | { readonly status: 'saving' }
  | { readonly status: 'saved'; readonly at: number }
  | { readonly status: 'failed'; readonly message: string };

/** Makes the draft as it stands; null when there is nothing worth saving yet. */
export type DraftProducer = () => DraftInput | null;

export interface DraftAutosaveOptions {
  readonly delayMs: number;
  readonly save: (draft: DraftInput) => Promise<{ draftId: string }>;
  readonly onStatus: (status: SaveStatus) => void;
  /** The id of a draft being reopened. */
  readonly draftId?: string;
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

  constructor(private readonly options: DraftAutosaveOptions) {
    this.draftIdValue = options.draftId;
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
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.saveLatest().catch(() => undefined);
    }, this.options.delayMs);
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
        const draft = this.producer?.() ?? null;
        if (!draft) return;
        const key = contentKey(draft);
        if (key === this.savedKey && this.draftIdValue !== undefined) return;
        this.options.onStatus({ status: 'saving' });
        try {
          const { draftId } = await this.options.save({ ...draft, draftId: this.draftIdValue });
          this.draftIdValue = draftId;
          this.savedKey = key;
          this.options.onStatus({ status: 'saved', at: (this.options.now ?? Date.now)() });
        } catch (cause) {
          this.options.onStatus({ status: 'failed', message: cause instanceof Error ? cause.message : String(cause) });
          throw cause;
        }
      });
    this.running = next;
    return next;
  }
}

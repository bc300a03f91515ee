/**
 * Which engine syncs and writes. A SharedWorker is the only engine, so it always is.
 * Where SharedWorker is missing every tab runs its own engine in a dedicated worker, and
 * the Web Lock `tern-engine-writer` elects one: the first to ask holds it while it lives;
 * when that tab closes the browser releases the lock and the next waiting engine gets it.
 */

/** The part of the Web Locks API (navigator.locks) used here; tests pass a fake. */
export interface LockManagerLike {
  request(name: string, options: { mode?: 'exclusive' | 'shared'; signal?: AbortSignal }, callback: (lock: unknown) => Promise<unknown>): Promise<unknown>;
}

export const WRITER_LOCK = 'tern-engine-writer';

export interface WriterRole {
  /** True while this engine holds the role. */
  readonly isWriter: boolean;
  /** Resolves when this engine becomes the writer; never, if it resigns first. */
  readonly elected: Promise<void>;
  /** Gives the role up, or stops waiting for it (engine shutting down). */
  resign(): void;
}

/** The SharedWorker case: the one engine writes. */
export function soleWriter(): WriterRole {
  return { isWriter: true, elected: Promise.resolve(), resign: () => {} };
}

export interface ElectWriterParams {
  readonly locks: LockManagerLike;
  readonly name?: string;
  /** Told about a lock failure other than our own resignation. */
  readonly onError?: (error: unknown) => void;
}

export function electWriter({ locks, name = WRITER_LOCK, onError }: ElectWriterParams): WriterRole {
  const waiting = new AbortController();
  let isWriter = false;
  let release: (() => void) | null = null;
  let resigned = false;
  let markElected!: () => void;
  const elected = new Promise<void>((resolve) => (markElected = resolve));

  locks
    .request(name, { mode: 'exclusive', signal: waiting.signal }, () => {
      if (resigned) return Promise.resolve();
      isWriter = true;
      markElected();
      // Held until resign() or until this worker dies (the browser releases it then).
      return new Promise<void>((resolve) => (release = resolve));
    })
    .catch((error: unknown) => {
      if (!resigned) onError?.(error);
    });

  return {
    get isWriter() {
      return isWriter;
    },
    elected,
    resign() {
      resigned = true;
      if (release) {
        isWriter = false;
        release();
        release = null;
      } else {
        waiting.abort();
      }
    },
  };
}

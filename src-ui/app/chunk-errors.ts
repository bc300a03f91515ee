/**
 * A deploy replaces the built files: a tab opened before it still runs the old code, and
 * the first time it needs a screen it has not loaded yet (a lazy route, the conversation
 * view, the composer) the old chunk's URL answers 404. The import then fails with a
 * TypeError whose wording depends on the browser. This tells those failures apart from
 * other errors, so the app can say what happened and offer a reload instead of a
 * generic error (nothing is lost by reloading: drafts are saved by the engine).
 */
import { brand } from '../brand';
import { ERROR_CATALOGUE } from '../../shared/errors';

/** What Chromium, Firefox and Safari say when a dynamic import's module cannot be fetched. */
const CHUNK_FAILURE = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Loading (?:CSS )?chunk [\w-]+ failed/i, // bundlers' own loaders
];

/** The page's code is older than the server's: thrown in place of a failed chunk import. */
export class AppUpdatedError extends Error {
  override readonly name = 'AppUpdated';
  constructor(cause?: unknown) {
    super(appUpdatedMessage(), { cause });
  }
}

/** "Tern Mail has been updated. Reload to continue.", with the name of the brand this bundle was built for. */
export function appUpdatedMessage(): string {
  return ERROR_CATALOGUE.AppUpdated.description.replace('Tern Mail', brand.name);
}

export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof AppUpdatedError) return true;
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || CHUNK_FAILURE.some((pattern) => pattern.test(error.message));
}

/**
 * Wraps a dynamic import so a missing chunk fails as an AppUpdatedError. Besides the
 * clearer message, this keeps TanStack Router's lazyRouteComponent from reloading the
 * page by itself on such an error (it matches the browser's wording), which would drop
 * whatever the person was doing without a word.
 */
export function importChunk<T>(importer: () => Promise<T>): () => Promise<T> {
  return () =>
    importer().catch((error: unknown) => {
      throw isChunkLoadError(error) ? new AppUpdatedError(error) : error;
    });
}

/**
 * The two things every action around an optional engine service does: find the service (an
 * engine without it — a test's fake — answers ServiceNotFound, not a TypeError), and turn a
 * refusal from across the worker boundary back into the catalogue's TernError, so the page
 * can say it in place.
 */
import { TernError } from '../../../shared/errors';
import type { UiEngine } from '../engine-port';

type OptionalService = 'settings' | 'rules' | 'contacts' | 'labels' | 'timers' | 'senders' | 'security' | 'autoClean';

/** The engine's service `name`; throws ServiceNotFound when this engine has none. */
export function engineService<K extends OptionalService>(engine: UiEngine, name: K): NonNullable<UiEngine[K]> {
  const service = engine[name];
  if (!service) throw new TernError('ServiceNotFound');
  return service as NonNullable<UiEngine[K]>;
}

/** Runs `work`; whatever it throws comes out as a TernError. */
export async function asTernError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw TernError.from(error);
  }
}

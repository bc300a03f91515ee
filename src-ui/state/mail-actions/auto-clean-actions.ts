/**
 * Auto-clean (Settings → Auto clean, issue 17 point 3): each an engine call through to the
 * gateway; refusals become the catalogue's TernError for the page to show in place (field
 * problems of AutoCleanRuleInvalid under their fields).
 */
import type { AutoCleanService } from '../../../shared/worker-api';
import type { UiEngine } from '../engine-port';
import { asTernError, engineService } from './engine-call';

export interface AutoCleanActions {
  /** The engine's AutoCleanService, each refusal a TernError (ServiceNotFound in an engine without it). */
  readonly autoClean: AutoCleanService;
}

export function createAutoCleanActions({ engine }: { engine: UiEngine }): AutoCleanActions {
  const service = (): AutoCleanService => engineService(engine, 'autoClean');
  // Each method is called on the service itself: `fn.call(…)` on a comlink remote would be sent to the worker as a property named "call".
  return {
    autoClean: {
      get: (params) => asTernError(() => service().get(params)),
      preview: (params) => asTernError(() => service().preview(params)),
      save: (params) => asTernError(() => service().save(params)),
      remove: (params) => asTernError(() => service().remove(params)),
      runNow: (params) => asTernError(() => service().runNow(params)),
      undo: (params) => asTernError(() => service().undo(params)),
    },
  };
}

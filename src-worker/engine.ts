import { proxy } from 'comlink';
import type { WorkerApi } from '../shared/worker-api';
import { createSessionService } from './session-service';

/** Builds the engine's services once per worker; every connecting tab shares them. */
export function createEngine(): WorkerApi {
  return { session: proxy(createSessionService()) };
}

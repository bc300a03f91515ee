/**
 * Names of the BroadcastChannels engines talk on (accounts, databases, mail relay). Each
 * carries the engine's build: a tab left open across a deploy runs the old engine beside
 * the new one, and their messages (internal shapes, not the versioned tab contract) must
 * not reach each other. Like replicache's versioned channel names (STYLE item 6).
 */
import { APP_VERSION } from '../../shared/app-info';
import { WORKER_API_VERSION } from '../../shared/worker-api';

/** The build an engine belongs to: the app version and the tab contract's version. */
export const ENGINE_BUILD = `${APP_VERSION}/api${WORKER_API_VERSION}`;

/** `base` as engines of `build` name it, e.g. `tern-mail@5.33.0/api3`. */
export function channelName(base: string, build: string = ENGINE_BUILD): string {
  return `${base}@${build}`;
}

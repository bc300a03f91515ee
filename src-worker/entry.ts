/// <reference lib="webworker" />
import { expose } from 'comlink';
import { createEngine } from './engine';

// One engine for all tabs: a SharedWorker hands each tab its own port.
// Where SharedWorker does not exist the tab starts this file as a dedicated worker.
const api = createEngine();
const scope = self as unknown as SharedWorkerGlobalScope & DedicatedWorkerGlobalScope;
if ('onconnect' in scope) {
  scope.onconnect = (event: MessageEvent) => expose(api, event.ports[0]);
} else {
  expose(api, scope);
}

/// <reference lib="webworker" />
import { expose } from 'comlink';
import { registerErrorTransfer } from '../shared/error-transfer';
import { electWriter, soleWriter } from './boundary/writer-election';
import { createEngine } from './engine';

// One engine for all tabs: a SharedWorker hands each tab its own port. Where SharedWorker
// does not exist each tab starts this file as a dedicated worker, and a Web Lock elects
// the one engine that syncs and writes.
registerErrorTransfer();
const scope = self as unknown as SharedWorkerGlobalScope & DedicatedWorkerGlobalScope;
const shared = 'onconnect' in scope;
// A SharedWorker may outlive its last tab (extendedLifetime, for reloads): it ends itself
// once no tab has come back for a while (session-service.ts).
const api = createEngine(shared ? { writer: soleWriter(), onIdle: () => scope.close() } : { writer: electWriter({ locks: navigator.locks }) });
if (shared) {
  scope.onconnect = (event: MessageEvent) => expose(api, event.ports[0]);
} else {
  expose(api, scope);
}

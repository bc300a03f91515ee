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
const api = createEngine({ writer: shared ? soleWriter() : electWriter({ locks: navigator.locks }) });
if (shared) {
  scope.onconnect = (event: MessageEvent) => expose(api, event.ports[0]);
} else {
  expose(api, scope);
}

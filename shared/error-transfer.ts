/**
 * Keeps catalogue errors typed across the comlink boundary (STYLE.md item 4). comlink's
 * own throw handler sends only message/name/stack, so a `TernError` thrown in the
 * worker would reach the tab as a bare Error without its detail. Registered once in
 * the worker and once in every tab (the registry is per JS realm).
 */
import { transferHandlers, type TransferHandler } from 'comlink';
import { TernError, isErrorName } from './errors';

/** What a thrown value looks like on the wire. */
export type WireThrown =
  | { readonly kind: 'tern'; readonly name: string; readonly message: string; readonly data: { readonly detail?: unknown; readonly requestId?: string } }
  | { readonly kind: 'error'; readonly name: string; readonly message: string; readonly stack?: string }
  | { readonly kind: 'value'; readonly value: unknown };

/** Serialises whatever was thrown into something structured clone can carry. */
export function toWireThrown(value: unknown): WireThrown {
  if (value instanceof TernError) {
    const data = { ...(value.detail !== undefined ? { detail: value.detail } : {}), ...(value.requestId ? { requestId: value.requestId } : {}) };
    return { kind: 'tern', name: value.name, message: value.message, data };
  }
  if (value instanceof Error) return { kind: 'error', name: value.name, message: value.message, ...(value.stack ? { stack: value.stack } : {}) };
  return { kind: 'value', value };
}

/** Rebuilds the thrown value on the receiving side. */
export function fromWireThrown(wire: WireThrown): unknown {
  switch (wire.kind) {
    case 'tern':
      // An unknown name (a newer engine than this tab) becomes InternalServerError, never free text.
      return isErrorName(wire.name)
        ? new TernError(wire.name, { description: wire.message, detail: wire.data.detail, ...(wire.data.requestId ? { requestId: wire.data.requestId } : {}) })
        : TernError.from({ name: wire.name });
    case 'error':
      return Object.assign(new Error(wire.message), { name: wire.name, ...(wire.stack ? { stack: wire.stack } : {}) });
    case 'value':
      return wire.value;
  }
}

let registered = false;

/** Replaces comlink's throw handler; safe to call more than once. */
export function registerErrorTransfer(): void {
  if (registered) return;
  const builtin = transferHandlers.get('throw');
  if (!builtin) throw new Error('comlink has no throw handler to replace; check the comlink version.');
  // comlink wraps a thrown value as { value, [private marker] }; its own canHandle knows the marker.
  const handler: TransferHandler<{ value: unknown }, WireThrown> = {
    canHandle: (value): value is { value: unknown } => builtin.canHandle(value),
    serialize: ({ value }) => [toWireThrown(value), []],
    deserialize: (wire) => {
      throw fromWireThrown(wire);
    },
  };
  transferHandlers.set('throw', handler);
  registered = true;
}

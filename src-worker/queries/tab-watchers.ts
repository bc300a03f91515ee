/**
 * Tabs watching something the engine keeps (comlink proxies of their callbacks): each hears
 * every change; a watcher whose tab is gone (its call fails) is dropped.
 */
import { parseParams, subscriptionParamsSchema } from './query-params';

export class TabWatchers<T> {
  private readonly watchers = new Map<string, (value: T) => unknown>();

  /** Tells every watcher, later (never inside the caller's transaction). */
  tell(value: T): void {
    for (const [subscriptionId, onChange] of this.watchers) void Promise.resolve().then(() => onChange(value)).catch(() => this.watchers.delete(subscriptionId));
  }

  async watch(onChange: (value: T) => void): Promise<{ subscriptionId: string }> {
    const subscriptionId = crypto.randomUUID();
    this.watchers.set(subscriptionId, onChange);
    return { subscriptionId };
  }

  async unwatch(params: { subscriptionId: string }): Promise<void> {
    this.watchers.delete(parseParams(subscriptionParamsSchema, params).subscriptionId);
  }
}

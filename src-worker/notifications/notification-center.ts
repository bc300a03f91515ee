/**
 * One notification per event across every tab (issue 15 point 5): the engine is shared by
 * all tabs, so it decides here — each event's key is shown once, by exactly one tab (the one
 * that subscribed last, a tab that still runs). A tab that does not answer in time, or
 * fails, is dropped and the next one asked; the browser's tag (the key) is a second guard.
 */
import type { EngineNotification } from '../../shared/notifications';

/** How long a tab may take to show one before the next tab is asked (a closed tab never answers). */
export const TAB_ANSWER_MS = 3_000;
/** Keys remembered (the newest): an event seen again — a second page, a second tab's sync — is not shown twice. */
const KEYS_KEPT = 2_000;

type Show = (notification: EngineNotification) => boolean | Promise<boolean>;

export class NotificationCenter {
  private readonly tabs: { readonly id: string; readonly show: Show }[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly deps: { readonly setTimeout?: (callback: () => void, ms: number) => unknown } = {}) {}

  /** A tab that can show notifications (it asked for permission itself; false from `show` means it may not). */
  watch(show: Show): { subscriptionId: string } {
    const subscriptionId = crypto.randomUUID();
    this.tabs.push({ id: subscriptionId, show });
    return { subscriptionId };
  }

  unwatch(subscriptionId: string): void {
    const at = this.tabs.findIndex((tab) => tab.id === subscriptionId);
    if (at >= 0) this.tabs.splice(at, 1);
  }

  /** Shows an event once: true when a tab showed it; false when seen before or no tab could. */
  async publish(notification: EngineNotification): Promise<boolean> {
    if (this.seen.has(notification.key)) return false;
    this.seen.add(notification.key);
    if (this.seen.size > KEYS_KEPT) this.seen.delete(this.seen.values().next().value!);
    for (const tab of [...this.tabs].reverse()) {
      try {
        if (await this.answer(tab.show, notification)) return true;
        return false; // the tab may not (no permission): no other tab may either
      } catch {
        this.unwatch(tab.id);
      }
    }
    return false;
  }

  private answer(show: Show, notification: EngineNotification): Promise<boolean> {
    const later = this.deps.setTimeout ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
    return new Promise<boolean>((resolve, reject) => {
      later(() => reject(new Error('The tab did not answer.')), TAB_ANSWER_MS);
      Promise.resolve()
        .then(() => show(notification))
        .then(resolve, reject);
    });
  }
}

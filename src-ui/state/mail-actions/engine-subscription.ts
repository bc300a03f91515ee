/**
 * An engine subscription as the unsubscribe a component's effect returns: the engine's
 * `watch` answers later, so an unsubscribe that comes first still ends it once it has an id.
 */
export function engineSubscription(watch: () => Promise<{ readonly subscriptionId: string }>, unwatch: (params: { subscriptionId: string }) => Promise<void>): () => void {
  let stopped = false;
  let subscriptionId: string | null = null;
  void watch().then(
    (answer) => {
      subscriptionId = answer.subscriptionId;
      if (stopped) void unwatch({ subscriptionId }).catch(() => undefined);
    },
    () => undefined,
  );
  return () => {
    stopped = true;
    if (subscriptionId) void unwatch({ subscriptionId }).catch(() => undefined);
  };
}

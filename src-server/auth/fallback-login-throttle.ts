import { TernError } from '../../shared/errors';
import type { LoginAttempt, LoginThrottle } from './rate-limit';

/**
 * The shared throttle (Redis), and this node's own counters while it is away. Refusing every
 * login during a Redis outage would lock everybody out; not counting at all would open the
 * door to guessing. Counting per node for the outage keeps each node's limits (a guesser gets
 * one allowance per node behind the balancer, for that while). The answer of a working
 * throttle (a TooManyRequests) is never second-guessed: only its failures fall back.
 */
export class FallbackLoginThrottle implements LoginThrottle {
  /** Attempts the fallback counted, settled there too. */
  private readonly counted = new WeakSet<LoginAttempt>();

  constructor(
    private readonly params: {
      readonly shared: LoginThrottle;
      readonly fallback: LoginThrottle;
      /** Whether the shared one can answer now (its connection is up); when not, nobody waits for it. */
      readonly available: () => boolean;
      /** A failure of the shared one despite its connection (the outage itself is told by the connection). */
      readonly onError: (error: unknown) => void;
    },
  ) {}

  async lookup(params: { ip: string }): Promise<void> {
    await this.either((throttle) => throttle.lookup(params));
  }

  async begin(params: { email: string; ip: string }): Promise<LoginAttempt> {
    const { result, by } = await this.either((throttle) => throttle.begin(params));
    if (by === this.params.fallback) this.counted.add(result);
    return result;
  }

  async succeeded(attempt: LoginAttempt): Promise<void> {
    await this.settle(attempt, (throttle) => throttle.succeeded(attempt));
  }

  async failed(attempt: LoginAttempt, params: { countsForAddress: boolean }): Promise<void> {
    await this.settle(attempt, (throttle) => throttle.failed(attempt, params));
  }

  private async either<T>(run: (throttle: LoginThrottle) => T | Promise<T>): Promise<{ result: T; by: LoginThrottle }> {
    const { shared, fallback } = this.params;
    if (this.params.available()) {
      try {
        return { result: await run(shared), by: shared };
      } catch (error) {
        if (error instanceof TernError) throw error;
        this.params.onError(error);
      }
    }
    return { result: await run(fallback), by: fallback };
  }

  /** Taking counts back must not fail a login whose password was right: a lost take-back only over-counts. */
  private async settle(attempt: LoginAttempt, run: (throttle: LoginThrottle) => void | Promise<void>): Promise<void> {
    try {
      await run(this.counted.has(attempt) ? this.params.fallback : this.params.shared);
    } catch (error) {
      this.params.onError(error);
    }
  }
}

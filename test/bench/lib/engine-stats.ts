/**
 * Item 11: the worker boundary as the page sees it. The app keeps a ring of its engine
 * calls (round trip, message weights) and of the messages the engine pushes, read-only on
 * `globalThis.__ternEngineStats` (src-ui/engine/rpc-stats.ts). A scenario notes the
 * sequence number before an interaction and reads what crossed during it.
 */
import type { Page } from 'playwright-core';
import type { RpcEntry } from '../../../src-ui/engine/rpc-stats';
import { median, p95 } from './stats';

export type { RpcEntry };

/** The newest entry's number, or null when the page has no stats hook (an older build). */
export async function statsSeq(page: Page): Promise<number | null> {
  return (await page.evaluate('globalThis.__ternEngineStats ? globalThis.__ternEngineStats.seq : null')) as number | null;
}

/** What crossed the boundary since `seq`. */
export async function statsSince(page: Page, seq: number): Promise<RpcEntry[]> {
  return (await page.evaluate(`globalThis.__ternEngineStats.entries(${Number(seq)})`)) as RpcEntry[];
}

/** One interaction (a thread opened, a key, a search, a fling) and what crossed during it. */
export interface Interaction {
  readonly path: string;
  readonly entries: readonly RpcEntry[];
}

/** Runs `action` and returns what crossed the boundary during it (and `settleMs` after). */
export async function measureInteraction(page: Page, path: string, action: () => Promise<unknown>, settleMs = 250): Promise<Interaction> {
  const before = await statsSeq(page);
  if (before === null) throw new Error('the page has no globalThis.__ternEngineStats');
  await action();
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return { path, entries: await statsSince(page, before) };
}

const heaviest = (entries: readonly RpcEntry[]) => entries.reduce((most, entry) => Math.max(most, entry.sentChars, entry.receivedChars), 0);

export interface BoundaryFigures {
  /** Round trip of every call during the interactions, ms. */
  readonly roundTrips: number[];
  /** The heaviest message of each interaction, KB (1024 JSON characters). */
  readonly largestKB: number[];
  /** One line per path: calls, p50/p95, heaviest message and what carried it. */
  readonly perPath: string[];
}

export function boundaryFigures(interactions: readonly Interaction[]): BoundaryFigures {
  const paths = [...new Set(interactions.map((interaction) => interaction.path))];
  const perPath = paths.map((path) => {
    const mine = interactions.filter((interaction) => interaction.path === path);
    const entries = mine.flatMap((interaction) => interaction.entries);
    const calls = entries.filter((entry) => entry.kind === 'call' && entry.ms !== null);
    const ms = calls.map((entry) => entry.ms!);
    const top = entries.reduce<RpcEntry | null>((best, entry) => (!best || Math.max(entry.sentChars, entry.receivedChars) > Math.max(best.sentChars, best.receivedChars) ? entry : best), null);
    const methods = [...new Set(calls.map((entry) => entry.method))].join(', ');
    const pushes = entries.length - calls.length;
    const trips = ms.length ? `round trip p50 ${median(ms).toFixed(1)} ms, p95 ${p95(ms).toFixed(1)} ms over ${ms.length} calls (${methods})` : 'no calls';
    const largest = top ? `; largest message ${(heaviest([top]) / 1024).toFixed(1)} KB (${top.kind === 'push' ? 'a pushed patch' : top.method})` : '';
    return `${path} (${mine.length}×): ${trips}${pushes ? `, ${pushes} pushes` : ''}${largest}`;
  });
  return {
    roundTrips: interactions.flatMap((interaction) => interaction.entries.filter((entry) => entry.kind === 'call' && entry.ms !== null).map((entry) => entry.ms!)),
    largestKB: interactions.filter((interaction) => interaction.entries.length > 0).map((interaction) => heaviest(interaction.entries) / 1024),
    perPath,
  };
}

/**
 * The page's side of the spell worker: one dedicated Worker for the tab, started by the
 * first composer that checks spelling (a free plan or the switch off starts none), from the
 * bundle the page names (meta tern-spell-worker, build.mjs). The personal word list is
 * pushed to it whenever it changes, before the next check.
 */
import { wrap, type Remote } from 'comlink';
import type { SpellWorkerApi } from '../../shared/spelling';

let worker: Remote<SpellWorkerApi> | null = null;
let personal = '';

/** The spell worker, started on first call; null where the page names none (a unit test's DOM). */
export function spellWorker(): Remote<SpellWorkerApi> | null {
  if (worker) return worker;
  const url = document.querySelector<HTMLMetaElement>('meta[name="tern-spell-worker"]')?.content;
  if (!url || typeof Worker !== 'function') return null;
  worker = wrap<SpellWorkerApi>(new Worker(url, { type: 'module', name: 'tern-spell' }));
  return worker;
}

/** Tells the worker the personal word list when it differs from the last one told. */
export async function syncPersonalWords(api: Remote<SpellWorkerApi>, words: readonly string[]): Promise<void> {
  const key = words.join('\n');
  if (key === personal) return;
  personal = key;
  await api.setPersonal([...words]);
}

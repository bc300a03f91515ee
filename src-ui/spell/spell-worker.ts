/// <reference lib="webworker" />
/**
 * The spell worker (issue 14 point 5): a dedicated Worker of its own bundle (build.mjs,
 * entry `spell`), started by the first composer that checks spelling (spell-client.ts). It
 * fetches the Hunspell files the build ships beside the bundles (content-hashed, named by
 * __TERN_DICTIONARIES__), same origin: no CDN, and nothing leaves the device.
 */
import { expose } from 'comlink';
import type { SpellLanguage } from '../../shared/spelling';
import { createSpellChecker } from './spell-checker';

declare const __TERN_DICTIONARIES__: Record<SpellLanguage, { aff: string; dic: string }>;

async function text(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The dictionary ${url} answered ${response.status}`);
  return response.text();
}

const checker = createSpellChecker(async (language) => {
  const urls = __TERN_DICTIONARIES__[language];
  const [aff, dic] = await Promise.all([text(urls.aff), text(urls.dic)]);
  return { aff, dic };
});

expose(checker, self as unknown as DedicatedWorkerGlobalScope);

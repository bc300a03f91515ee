#!/usr/bin/env node
/**
 * Builds Tern with esbuild (and nothing else):
 *   - the UI as ESM with code splitting and content-hashed names  → public/build/
 *   - the SharedWorker engine bundle, content-hashed               → public/build/
 *   - the page (public/index.html filled in) and the web manifest  → public/build/
 *   - the gateway for Node                                        → dist/server/gateway.mjs
 *
 *   node build.mjs [--brand=tern|kite] [--dev] [--watch] [--out=DIR] [--no-precompress] [--deps-only | --no-install]
 *
 * --out=DIR writes public/build/ and dist/server/ under DIR instead of the repository.
 * The browser files get brotli and gzip copies beside them (x.js.br, x.js.gz) for the
 * gateway to send as they are; --no-precompress (tests that only read the build) and
 * --watch skip that.
 *
 * It first installs the npm packages when node_modules does not match package-lock.json,
 * so `npm test`, `npm run demo` and `npm start` work on a fresh clone with no other step.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';

import { brandIcons } from './build-icons.mjs';

const root = dirname(fileURLToPath(import.meta.url));

/** Runs `npm ci` when the installed packages are not the ones the lockfile names. */
export function ensureNodeModules() {
  const lockHash = createHash('sha256').update(readFileSync(join(root, 'package-lock.json'))).digest('hex');
  const stamp = join(root, 'node_modules', '.tern-lock-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash) return;
  console.log('Installing npm packages (npm ci)…');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('npm ci failed. Check the npm registry is reachable, then run the command again.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, lockHash);
}

function parseArgs(argv) {
  const options = { brand: 'tern', dev: false, watch: false, depsOnly: false, install: true, precompress: true, out: root };
  for (const arg of argv) {
    if (arg === '--dev') options.dev = true;
    else if (arg === '--watch') options.watch = options.dev = true;
    else if (arg === '--deps-only') options.depsOnly = true;
    // Builds started by tests must never run npm ci under the feet of the running suite.
    else if (arg === '--no-install') options.install = false;
    else if (arg === '--no-precompress') options.precompress = false;
    else if (arg.startsWith('--brand=')) options.brand = arg.slice('--brand='.length);
    else if (arg.startsWith('--out=')) options.out = resolve(arg.slice('--out='.length));
    else {
      console.error(`Unknown option ${arg}.\nUsage: node build.mjs [--brand=tern|kite] [--dev] [--watch] [--out=DIR] [--no-precompress] [--deps-only | --no-install]`);
      process.exit(2);
    }
  }
  return options;
}

/** The brand table lives in shared/brands.ts; esbuild reads it so there is one source. */
async function loadBrand(esbuild, id) {
  const { outputFiles } = await esbuild.build({
    entryPoints: [join(root, 'shared', 'brands.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
  });
  const module = await import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
  try {
    return module.brandById(id);
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
}

/** Finds the output file an entry point produced in an esbuild metafile. */
function outputOf(metafile, entry) {
  for (const [path, output] of Object.entries(metafile.outputs)) {
    if (output.entryPoint === entry) return { path, css: output.cssBundle };
  }
  throw new Error(`esbuild produced no output for ${entry}`);
}

/**
 * Screens a signed-in reload shows first: the page preloads their chunks (and every chunk
 * those import) beside the entry, so they download while the engine starts instead of
 * after the app has run (DESIGN §8, warm start ≤ 250 ms). Modulepreload fetches and
 * compiles; nothing runs until the app imports it.
 */
const BOOT_MODULE = 'src-ui/engine/boot.ts';
const SPELL_WORKER_MODULE = 'src-ui/spell/spell-worker.ts';
const FIRST_SCREEN_MODULES = ['src-ui/engine/boot.ts', 'src-ui/main.tsx', 'src-ui/app/App.tsx', 'src-ui/app/MailLayout.tsx', 'src-ui/app/MailboxRoutes.tsx'];

/** The output files of those modules and their static imports, entry first (esbuild's metafile). */
function firstScreenChunks(metafile) {
  const byEntry = new Map(Object.entries(metafile.outputs).filter(([, output]) => output.entryPoint).map(([path, output]) => [output.entryPoint, path]));
  const chunks = [];
  const visit = (path) => {
    if (chunks.includes(path)) return;
    chunks.push(path);
    for (const imported of metafile.outputs[path].imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  for (const module of FIRST_SCREEN_MODULES) {
    const path = byEntry.get(module);
    if (!path) throw new Error(`build.mjs preloads ${module}, which esbuild did not emit as a chunk`);
    visit(path);
  }
  return chunks;
}

/** The URL the gateway serves a built file at (public/build/x.js → /build/x.js). */
const toUrl = (outUi, path) => '/build/' + relative(outUi, resolve(root, path)).split('\\').join('/');

/** The two themes' page colours (src-ui/kit/base.css --bg-app): the installed app's title bar and splash. */
const THEME_COLOURS = { light: '#eef1f5', dark: '#0d1014' };

/**
 * The web app manifest (issue 20): the brand's name and icons (PNGs drawn by
 * build-icons.mjs, the SVG logo), and `mailto:` links handled by /compose (an installed
 * app's registration; the page's own is Settings' "Default mail app").
 */
function writeManifest(outUi, brand) {
  const icons = brandIcons(brand);
  for (const [name, bytes] of Object.entries(icons)) writeFileSync(join(outUi, name), bytes);
  writeFileSync(join(outUi, 'icon.svg'), brand.logoSvg);
  const manifest = {
    id: '/',
    name: brand.name,
    short_name: brand.name,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOURS.light,
    background_color: THEME_COLOURS.light,
    icons: [
      { src: '/build/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      { src: '/build/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/build/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/build/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    protocol_handlers: [{ protocol: 'mailto', url: '/compose?uri=%s' }],
  };
  writeFileSync(join(outUi, 'manifest.webmanifest'), JSON.stringify(manifest, null, 2));
  return ['/build/manifest.webmanifest', '/build/icon.svg', ...Object.keys(icons).map((name) => `/build/${name}`)];
}

/**
 * The service worker at public/build/sw.js (the gateway serves it as /sw.js): its code
 * (src-ui/offline/service-worker.ts) after the list of this build's files. The version is
 * a hash of that list and the page, so any change of either makes a new worker, which
 * waits until the page's "Reload" (never old and new chunks in one tab).
 */
function writeServiceWorker(outUi, code, files, page) {
  const urls = ['/', ...[...new Set(files)].sort()];
  const version = createHash('sha256').update(urls.join('\n')).update(page).digest('hex').slice(0, 16);
  writeFileSync(join(outUi, 'sw.js'), `self.__TERN_PRECACHE__=${JSON.stringify({ version, urls })};\n${code}`);
}

function writePage(outUi, brand, ui, worker, sw) {
  const assets = writeManifest(outUi, brand);

  const values = {
    title: brand.name,
    accent: brand.accent,
    themeLight: THEME_COLOURS.light,
    themeDark: THEME_COLOURS.dark,
    manifest: '/build/manifest.webmanifest',
    css: toUrl(outUi, ui.css),
    entry: toUrl(outUi, ui.path),
    boot: toUrl(outUi, ui.boot),
    worker: toUrl(outUi, worker.path),
    spellWorker: toUrl(outUi, worker.spell),
  };
  const attribute = (value) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  // Whole tags, one per line: the entry and the chunks of the first screen (firstScreenChunks).
  const preloads = ui.preload.map((path) => `<link rel="modulepreload" href="${attribute(toUrl(outUi, path))}" />`).join('\n    ');
  const template = readFileSync(join(root, 'public', 'index.html'), 'utf8');
  const html = template.replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (key === 'preloads') return preloads;
    if (!(key in values)) throw new Error(`public/index.html names an unknown value {{${key}}}`);
    return attribute(values[key]);
  });
  writeFileSync(join(outUi, 'index.html'), html);
  writeServiceWorker(outUi, sw.code, [...ui.files, ...worker.files, ...assets].map((path) => (path.startsWith('/') ? path : toUrl(outUi, path))), html);
}

/** Files the gateway may send precompressed: text; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|map|webmanifest|svg|json|txt|aff|dic)$/;

/**
 * The emoji picker's data (emoji-picker-element-data, CLDR names) for the app's two
 * languages, served by the gateway like the bundles: the picker's default source is a CDN,
 * and Tern works offline and tells no third party when someone writes (DESIGN §5). Only
 * en and de are copied — the package holds 28 languages in 8 flavours each.
 */
export const EMOJI_LOCALES = ['en', 'de'];
function copyEmojiData(outUi) {
  mkdirSync(join(outUi, 'emoji'), { recursive: true });
  for (const locale of EMOJI_LOCALES) {
    copyFileSync(join(root, 'node_modules', 'emoji-picker-element-data', locale, 'cldr', 'data.json'), join(outUi, 'emoji', `${locale}.json`));
  }
}

/**
 * The spell checker's Hunspell dictionaries (dictionary-en, dictionary-de; issue 14 point 5),
 * fetched by the spell worker on first use from beside the bundles — never a CDN. Named by a
 * hash of their content like the bundles, so the gateway lets browsers keep them for good
 * (static-shell.ts) and a new dictionary is a new URL. They stay out of the service worker's
 * precache: 1.7 MB (≈ 0.5 MB brotli) that every install would download for a feature only
 * paid plans use; the HTTP cache keeps them once fetched. Returns the URLs by language.
 */
export const SPELL_LANGUAGES = ['en', 'de'];
function copyDictionaries(outUi) {
  mkdirSync(join(outUi, 'dict'), { recursive: true });
  const urls = {};
  for (const language of SPELL_LANGUAGES) {
    urls[language] = {};
    for (const kind of ['aff', 'dic']) {
      const bytes = readFileSync(join(root, 'node_modules', `dictionary-${language}`, `index.${kind}`));
      const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 8).toUpperCase();
      const name = `${language}-${hash}.${kind}`;
      writeFileSync(join(outUi, 'dict', name), bytes);
      urls[language][kind] = `/build/dict/${name}`;
    }
  }
  return urls;
}

/** Every file under `dir`, recursively (paths relative to it). */
function filesUnder(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(dir, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}

/**
 * Writes `x.br` (brotli at its highest quality) and `x.gz` (gzip level 9) beside every
 * text file of the build, so the gateway sends whichever the browser accepts with no work
 * per request (@fastify/static `preCompressed`, static-shell.ts). A file whose compressed
 * form is not smaller gets none: the gateway then sends the file itself. The zlib calls
 * run on libuv's thread pool, in parallel. Source maps only get gzip: brotli's top quality
 * costs seconds on them and only DevTools reads them.
 */
async function precompress(outUi) {
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  const brotliOptions = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT } };
  let before = 0;
  let after = 0;
  await Promise.all(
    filesUnder(outUi)
      .filter((file) => COMPRESSIBLE.test(file))
      .map(async (file) => {
        const path = join(outUi, file);
        const source = await readFile(path);
        const encodings = [['.gz', gzipAsync(source, { level: 9 })]];
        if (!file.endsWith('.map')) encodings.push(['.br', brotli(source, brotliOptions)]);
        for (const [extension, pending] of encodings) {
          const packed = await pending;
          if (packed.length < source.length) await writeFile(path + extension, packed);
        }
        if (!file.endsWith('.map')) {
          // Read first, then add: `after += await …` would add to a total read before the await.
          const sent = (await readFile(path + '.br').catch(() => source)).length;
          before += source.length;
          after += sent;
        }
      }),
  );
  return { before, after };
}

/** Removes precompressed files a previous build left: in watch mode they would be served stale. */
function removePrecompressed(outUi) {
  if (!existsSync(outUi)) return;
  for (const file of filesUnder(outUi)) if (/\.(br|gz)$/.test(file)) rmSync(join(outUi, file));
}

function reportSizes(metafile) {
  for (const [path, output] of Object.entries(metafile.outputs)) {
    if (!output.entryPoint || path.endsWith('.map')) continue;
    const gz = gzipSync(readFileSync(resolve(root, path))).length;
    console.log(`  ${path}  ${(output.bytes / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzipped`);
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.install) ensureNodeModules();
  if (options.depsOnly) return;
  const esbuild = await import('esbuild');
  const brand = await loadBrand(esbuild, options.brand);
  const started = performance.now();
  const outUi = join(options.out, 'public', 'build');
  const outServer = join(options.out, 'dist', 'server');
  if (!options.watch) rmSync(outUi, { recursive: true, force: true });
  else removePrecompressed(outUi);
  mkdirSync(outUi, { recursive: true });
  copyEmojiData(outUi);
  const dictionaries = copyDictionaries(outUi);

  const browser = {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    target: ['chrome120', 'firefox121', 'safari17'],
    minify: !options.dev,
    sourcemap: options.dev ? 'inline' : 'linked',
    metafile: true,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    outdir: outUi,
    logLevel: 'warning',
    define: {
      __TERN_BRAND__: JSON.stringify(brand.id),
      'process.env.NODE_ENV': JSON.stringify(options.dev ? 'development' : 'production'),
    },
  };
  // The page needs both bundles' hashed names; each build reports its latest, and the
  // page is rewritten whenever either changes (in watch mode too).
  const latest = { ui: null, worker: null, sw: null };
  const pageWriter = (key, entry) => ({
    name: `write-page-${key}`,
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length > 0 || !result.metafile) return;
        if (key === 'sw') latest.sw = { code: result.outputFiles[0].text };
        else latest[key] = {
          ...outputOf(result.metafile, entry),
          // Every file the browser may load (the service worker keeps them all).
          files: Object.keys(result.metafile.outputs).filter((path) => !path.endsWith('.map')),
          ...(key === 'worker' ? { spell: outputOf(result.metafile, SPELL_WORKER_MODULE).path } : {}),
          ...(key === 'ui' ? { boot: outputOf(result.metafile, BOOT_MODULE).path, preload: firstScreenChunks(result.metafile) } : {}),
        };
        if (latest.ui && latest.worker && latest.sw) writePage(outUi, brand, latest.ui, latest.worker, latest.sw);
        if (options.watch) console.log(`[watch] rebuilt ${key}`);
      });
    },
  });

  const contexts = await Promise.all([
    esbuild.context({
      ...browser,
      // boot: the engine connection, started before the app's chunks are evaluated (engine/boot.ts).
      entryPoints: { app: 'src-ui/main.tsx', boot: BOOT_MODULE },
      splitting: true,
      jsx: 'automatic',
      plugins: [pageWriter('ui', 'src-ui/main.tsx')],
    }),
    esbuild.context({
      ...browser,
      // The spell checker's dedicated worker (src-ui/spell) is its own bundle beside the engine's; the page names it (meta tern-spell-worker).
      entryPoints: { worker: 'src-worker/entry.ts', spell: SPELL_WORKER_MODULE },
      define: { ...browser.define, __TERN_DICTIONARIES__: JSON.stringify(dictionaries) },
      plugins: [pageWriter('worker', 'src-worker/entry.ts')],
    }),
    // The service worker: one classic script, its own file (not in the entry), written with the page.
    esbuild.context({
      ...browser,
      entryPoints: { sw: 'src-ui/offline/service-worker.ts' },
      format: 'iife',
      sourcemap: false,
      write: false,
      entryNames: '[name]',
      plugins: [pageWriter('sw', 'src-ui/offline/service-worker.ts')],
    }),
    esbuild.context({
      entryPoints: { gateway: 'src-server/main.ts' },
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      metafile: true,
      outExtension: { '.js': '.mjs' },
      outdir: outServer,
      logLevel: 'warning',
    }),
  ]);

  if (options.watch) {
    await Promise.all(contexts.map((context) => context.watch()));
    console.log(`Watching for changes (brand ${brand.id}). Ctrl-C to stop.`);
    return;
  }
  try {
    const results = await Promise.all(contexts.map((context) => context.rebuild()));
    console.log(`Built ${brand.name} in ${Math.round(performance.now() - started)} ms:`);
    for (const result of results) reportSizes(result.metafile);
    // (Watch builds never get here: a precompressed copy would go stale on the next change.)
    if (!options.precompress) return;
    const packed = await precompress(outUi);
    console.log(`  precompressed public/build: ${(packed.before / 1024).toFixed(0)} KB of text → ${(packed.after / 1024).toFixed(0)} KB brotli (maps: gzip only), in ${Math.round(performance.now() - started)} ms in all`);
  } catch {
    process.exitCode = 1; // esbuild has printed the errors
  } finally {
    await Promise.all(contexts.map((context) => context.dispose()));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

/**
 * The entry: React, the boot screen and the engine handshake, nothing else (DESIGN §8:
 * ≤ 90 KB gzipped). The app itself (router, state, screens) loads as a chunk while the
 * engine starts, and takes over once both are ready.
 */
import { lazy, StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { registerErrorTransfer } from '../shared/error-transfer';
import { brand } from './brand';
import { connectEngine, type EngineConnection } from './engine/connect-engine';
import { Shell, type EngineState } from './shell/Shell';
import { applyTheme, readThemeChoice, resolveTheme, systemPrefersDark } from './theme/theme';
import './styles.css';

function storedPreferences(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}

// Before the first paint: brand colours and the stored theme (no white flash in dark mode).
document.documentElement.style.setProperty('--brand-accent', brand.accent);
document.documentElement.style.setProperty('--brand-on-accent', brand.onAccent);
applyTheme(document.documentElement, resolveTheme(readThemeChoice(storedPreferences()), systemPrefersDark()));

registerErrorTransfer();
const connecting: Promise<EngineConnection> = connectEngine();

// The app chunk downloads now, in parallel with the engine's start.
const appModule = import('./app/App');
appModule.catch(() => undefined); // reported by the lazy component below when it renders
const MailApp = lazy(async () => {
  try {
    const [{ createMailAppForWorker }, connection] = await Promise.all([appModule, connecting]);
    return { default: createMailAppForWorker(connection).MailApp };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { default: () => <Shell brand={brand} engine={{ kind: 'failed', message }} /> };
  }
});

function Boot() {
  const [engine, setEngine] = useState<EngineState>({ kind: 'connecting' });
  useEffect(() => {
    connecting.then(
      (connection) => setEngine({ kind: 'connected', handshake: connection.handshake }),
      (error: unknown) => setEngine({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  }, []);
  const splash = <Shell brand={brand} engine={engine} />;
  if (engine.kind !== 'connected' || !engine.handshake.ok) return splash;
  return (
    <Suspense fallback={splash}>
      <MailApp />
    </Suspense>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <Boot />
  </StrictMode>,
);

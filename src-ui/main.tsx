import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { brand } from './brand';
import { connectEngine } from './engine/connect-engine';
import { Shell, type EngineState } from './shell/Shell';
import './styles.css';

function App() {
  const [engine, setEngine] = useState<EngineState>({ kind: 'connecting' });
  useEffect(() => {
    connectEngine().then(
      (connection) => setEngine({ kind: 'connected', handshake: connection.handshake }),
      (error: unknown) => setEngine({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  }, []);
  return <Shell brand={brand} engine={engine} />;
}

document.documentElement.style.setProperty('--accent', brand.accent);
document.documentElement.style.setProperty('--on-accent', brand.onAccent);
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

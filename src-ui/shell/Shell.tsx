import type { Brand } from '../../shared/brands';
import type { HandshakeResult } from '../../shared/worker-api';
import { shellText } from '../../shared/strings/shell-text';

export type EngineState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'connected'; readonly handshake: HandshakeResult }
  | { readonly kind: 'failed'; readonly message: string };

function engineStatusText(state: EngineState): string {
  switch (state.kind) {
    case 'connecting':
      return shellText('starting');
    case 'failed':
      return shellText('failed', { reason: state.message });
    case 'connected':
      // The engine's version stays off the screen (data-engine-version on <main>).
      return state.handshake.ok ? shellText('opening') : shellText('newerVersion');
  }
}

/** The branded frame every screen renders inside. */
export function Shell({ brand, engine }: { brand: Brand; engine: EngineState }) {
  const needsReload = engine.kind === 'connected' && !engine.handshake.ok;
  return (
    <div className="shell">
      <header className="shell-header">
        <img className="shell-logo" src={`data:image/svg+xml,${encodeURIComponent(brand.logoSvg)}`} alt="" />
        <h1 className="shell-title">{brand.name}</h1>
      </header>
      <main className="shell-main" aria-label={shellText('mail')} data-engine-version={engine.kind === 'connected' && engine.handshake.ok ? engine.handshake.engineVersion : undefined}>
        <p role="status" className="shell-status">
          {engineStatusText(engine)}
        </p>
        {needsReload && (
          <button type="button" className="button-primary" onClick={() => location.reload()}>
            {shellText('reload')}
          </button>
        )}
      </main>
    </div>
  );
}

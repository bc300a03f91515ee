/** The composer's title bar: its title, the save indicator, Minimize and Close. */
import { CloseIcon } from '../conversation/icons';
import type { SaveIndicator } from './save-indicator';
import { SaveIndicatorView } from './SaveIndicatorView';

/** A bar at the bottom (minimize) or a chevron up (show again), drawn like conversation/icons.tsx. */
const MinimizeIcon = ({ up }: { up: boolean }) => (
  <svg className="tern-icon" width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d={up ? 'm6 15 6-6 6 6' : 'M6 18h12'} />
  </svg>
);

export function ComposerHeader(props: {
  titleId: string;
  statusId: string;
  title: string;
  indicator: SaveIndicator;
  minimized: boolean | undefined;
  onMinimize: ((minimized: boolean) => void) | undefined;
  onClose: () => void;
}) {
  const { titleId, statusId, title, indicator, minimized, onMinimize, onClose } = props;
  return (
    <header className="tern-composer-header">
      {/* Minimized, the title bar unfolds it on a click too (the Show button is the keyboard's way). */}
      <h2 id={titleId} className="tern-composer-title" onClick={minimized ? () => onMinimize?.(false) : undefined}>
        {title}
      </h2>
      <SaveIndicatorView id={statusId} indicator={indicator} />
      {onMinimize && (
        <button
          type="button"
          className="tern-icon-button"
          aria-label={minimized ? 'Show the composer' : 'Minimize the composer'}
          aria-expanded={!minimized}
          title={minimized ? 'Show' : 'Minimize'}
          onClick={() => onMinimize(!minimized)}
        >
          <MinimizeIcon up={Boolean(minimized)} />
        </button>
      )}
      <button type="button" className="tern-icon-button" aria-label="Close and keep the draft" title="Close (Esc)" onClick={onClose}>
        <CloseIcon />
      </button>
    </header>
  );
}

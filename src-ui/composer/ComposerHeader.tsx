/** The composer's title bar: its title, the save indicator, Minimize and Close. */
import { Icon } from '../kit/icons';
import type { SaveIndicator } from './save-indicator';
import { SaveIndicatorView } from './SaveIndicatorView';


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
          <Icon name={minimized ? 'chevronUp' : 'minimize'} />
        </button>
      )}
      <button type="button" className="tern-icon-button" aria-label="Close and keep the draft" title="Close (Esc)" onClick={onClose}>
        <Icon name="close" />
      </button>
    </header>
  );
}

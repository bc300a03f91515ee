/**
 * The composer's save state in its title bar (save-indicator.ts says which). A live region,
 * so a change is announced; the reason ("You are offline", the server's error) is in its
 * accessible text and on hover, the visible words stay short.
 */
import { useT } from '../kit/i18n';
import { indicatorText, type SaveIndicator } from './save-indicator';

export function SaveIndicatorView({ indicator, id }: { indicator: SaveIndicator; id: string }) {
  const { text, full } = indicatorText(indicator, useT());
  return (
    <span id={id} className={`tern-save-status is-${indicator.kind}`} role="status" aria-live="polite" title={full !== text ? full : undefined} data-state={indicator.kind}>
      <span aria-hidden={full !== text ? true : undefined}>{text}</span>
      {full !== text && <span className="tern-visually-hidden">{full}</span>}
    </span>
  );
}

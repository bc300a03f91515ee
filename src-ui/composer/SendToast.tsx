/** What the composer becomes once Send is pressed: "Sending…" with Undo and the undo window's bar, then "Message sent.". */
import type { RefObject } from 'react';
import { ComposerStyle } from './ComposerStyle';

export type SendPhase = 'undoable' | 'undoing' | 'sent';

export function SendToast(props: { phase: SendPhase; undoDelayMs: number; undoButton: RefObject<HTMLButtonElement | null>; onUndo: () => void }) {
  const { phase, undoDelayMs, undoButton, onUndo } = props;
  return (
    <div className="tern-composer tern-send-toast" role="status" aria-live="polite">
      <ComposerStyle />
      <span className="tern-send-toast-text">{phase === 'sent' ? 'Message sent.' : phase === 'undoing' ? 'Undoing…' : 'Sending…'}</span>
      {phase === 'undoable' && (
        <button ref={undoButton} type="button" className="tern-link-button" onClick={onUndo}>
          Undo
        </button>
      )}
      {phase === 'undoable' && <span className="tern-send-toast-bar" style={{ animationDuration: `${undoDelayMs}ms` }} aria-hidden="true" />}
    </div>
  );
}

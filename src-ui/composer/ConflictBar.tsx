/**
 * A draft changed or sent elsewhere while this composer had it open: said at once, with the
 * two ways out. "Keep both" keeps this version as a draft of its own (the other stays as it
 * is); "Use the other version" reloads the composer with it. Until the person chooses,
 * nothing is saved over the other version, and closing keeps this text as its own draft.
 */
import type { DraftConflict } from './draft-autosave';

export function ConflictBar(props: { conflict: DraftConflict; onKeepBoth: () => void; onUseOther: (() => void) | undefined; busy: boolean }) {
  const { conflict } = props;
  const sent = conflict.reason === 'sent';
  return (
    <div className="tern-conflict-bar" role="alert">
      <p className="tern-conflict-text">
        {sent
          ? 'This draft was sent from another tab or window. What you wrote here is not in it.'
          : 'This draft was changed in another tab or window. Your version here is not saved over it.'}
      </p>
      <div className="tern-conflict-actions">
        <button type="button" className="tern-button tern-button-primary" disabled={props.busy} onClick={props.onKeepBoth}>
          {sent ? 'Keep mine as a new draft' : 'Keep both'}
        </button>
        {!sent && props.onUseOther && (
          <button type="button" className="tern-button" disabled={props.busy} onClick={props.onUseOther}>
            Use the other version
          </button>
        )}
      </div>
    </div>
  );
}

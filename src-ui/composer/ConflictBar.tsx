/**
 * A draft changed or sent elsewhere while this composer had it open: said at once, with the
 * two ways out. "Keep both" keeps this version as a draft of its own (the other stays as it
 * is); "Use the other version" reloads the composer with it. Until the person chooses,
 * nothing is saved over the other version, and closing keeps this text as its own draft.
 */
import type { DraftConflict } from './draft-autosave';
import { useT } from '../kit/i18n';

export function ConflictBar(props: { conflict: DraftConflict; onKeepBoth: () => void; onUseOther: (() => void) | undefined; busy: boolean }) {
  const t = useT();
  const { conflict } = props;
  const sent = conflict.reason === 'sent';
  return (
    <div className="tern-conflict-bar" role="alert">
      <p className="tern-conflict-text">
        {sent
          ? t('composer.thisDraftWasSent')
          : t('composer.thisDraftWasChanged')}
      </p>
      <div className="tern-conflict-actions">
        <button type="button" className="tern-button tern-button-primary" disabled={props.busy} onClick={props.onKeepBoth}>
          {sent ? t('composer.keepMineAsA') : t('composer.keepBoth')}
        </button>
        {!sent && props.onUseOther && (
          <button type="button" className="tern-button" disabled={props.busy} onClick={props.onUseOther}>
            {t('composer.useTheOtherVersion')}
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * How the latest "apply to existing mail" run of a filter goes: looking, n of N with a progress
 * bar, done (how many), or why it failed. The run is a gateway job, so this shows the same on
 * every tab and after a reload (use-account-rules.ts watches the runs).
 */
import type { RuleRun } from '../../../shared/mail-rules';
import { errorText, useT } from '../../kit/i18n';

export function RunStatus({ run, label }: { run: RuleRun; label: string }) {
  const t = useT();
  if (run.state === 'failed') {
    return (
      <p className="field-error rules-run" role="alert">
        {t('rules.applyFailed', { reason: errorText(t, { name: run.error ?? 'OperationFailed' }) })}
      </p>
    );
  }
  if (run.state === 'done') {
    return (
      <p className="field-hint rules-run" role="status">
        {t('rules.applied', { count: run.total })}
      </p>
    );
  }
  return (
    <div className="rules-run" role="status">
      <span className="field-hint">{run.total === 0 ? t('rules.applySearching') : t('rules.applyProgress', { done: run.done, total: run.total })}</span>
      {/* Without a value until the search has counted: the bar says "busy" rather than "0 %". */}
      <progress className="rules-run-bar" aria-label={label} max={run.total || undefined} value={run.total ? run.done : undefined} />
    </div>
  );
}

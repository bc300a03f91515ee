/** Runs one security call for a page: busy while it runs, the catalogue's sentence when refused. */
import { useState } from 'react';
import { TernError } from '../../../shared/errors';
import { errorText, useT } from '../../kit/i18n';

export function useSecurityCall() {
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Resolves with the call's result, or undefined when it was refused (the error is then shown). */
  const run = async <T,>(work: () => Promise<T>): Promise<T | undefined> => {
    setError(null);
    setBusy(true);
    try {
      return await work();
    } catch (cause) {
      setError(errorText(t, TernError.from(cause)));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy, clearError: () => setError(null) };
}

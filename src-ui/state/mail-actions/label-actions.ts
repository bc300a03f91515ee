/**
 * Labels (Settings → Labels): create, rename, recolour and delete, each one engine call
 * that resolves once every tab's settings show the new table; refusals become the
 * catalogue's TernError for the page to show. Giving a label is a thread command
 * (thread-commands.ts, kind 'label').
 */
import { TernError } from '../../../shared/errors';
import type { Label, LabelColor } from '../../../shared/labels';
import type { UiEngine } from '../engine-port';

export interface LabelActions {
  createLabel(params: { accountId: string; name: string; color: LabelColor }): Promise<readonly Label[]>;
  updateLabel(params: { accountId: string; labelId: string; name?: string; color?: LabelColor }): Promise<readonly Label[]>;
  removeLabel(params: { accountId: string; labelId: string }): Promise<readonly Label[]>;
}

export function createLabelActions({ engine }: { engine: UiEngine }): LabelActions {
  const labels = () => {
    if (!engine.labels) throw new TernError('ServiceNotFound');
    return engine.labels;
  };
  const call = async <T,>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw TernError.from(error);
    }
  };
  return {
    createLabel: (params) => call(() => labels().create(params)),
    updateLabel: (params) => call(() => labels().update(params)),
    removeLabel: (params) => call(() => labels().remove(params)),
  };
}

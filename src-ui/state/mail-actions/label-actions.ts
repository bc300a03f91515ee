/**
 * Labels (Settings → Labels): create, rename, recolour and delete, each one engine call
 * that resolves once every tab's settings show the new table; refusals become the
 * catalogue's TernError for the page to show. Giving a label is a thread command
 * (thread-commands.ts, kind 'label').
 */
import type { Label, LabelColor } from '../../../shared/labels';
import type { UiEngine } from '../engine-port';
import { asTernError as call, engineService } from './engine-call';

export interface LabelActions {
  createLabel(params: { accountId: string; name: string; color: LabelColor }): Promise<readonly Label[]>;
  updateLabel(params: { accountId: string; labelId: string; name?: string; color?: LabelColor }): Promise<readonly Label[]>;
  removeLabel(params: { accountId: string; labelId: string }): Promise<readonly Label[]>;
}

export function createLabelActions({ engine }: { engine: UiEngine }): LabelActions {
  const labels = () => engineService(engine, 'labels');
  return {
    createLabel: (params) => call(() => labels().create(params)),
    updateLabel: (params) => call(() => labels().update(params)),
    removeLabel: (params) => call(() => labels().remove(params)),
  };
}

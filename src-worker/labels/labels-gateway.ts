/** The gateway's label routes (shared/api/labels.ts), for one account. */
import { labelsDocSchema, type LabelInput, type LabelPatch, type LabelsDoc } from '../../shared/api/labels';
import type { GatewayClient } from '../api/gateway-client';

export interface LabelsGateway {
  /** POST: not retried blindly (a repeat after a lost answer would be LabelAlreadyExists). */
  create(input: LabelInput): Promise<LabelsDoc>;
  update(labelId: string, patch: LabelPatch): Promise<LabelsDoc>;
  remove(labelId: string): Promise<LabelsDoc>;
}

export function createLabelsGateway(client: GatewayClient): LabelsGateway {
  return {
    create: (input) => client.json({ type: 'labels', method: 'POST', path: '/labels', json: input, retry: false }, labelsDocSchema),
    update: (labelId, patch) => client.json({ type: 'labels', method: 'PATCH', path: `/labels/${encodeURIComponent(labelId)}`, json: patch }, labelsDocSchema),
    remove: (labelId) => client.json({ type: 'labels', method: 'DELETE', path: `/labels/${encodeURIComponent(labelId)}` }, labelsDocSchema),
  };
}

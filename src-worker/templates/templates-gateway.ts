/** The gateway's template routes (shared/templates.ts), for one account. */
import * as z from 'zod';
import { templateChangesSchema, templateSchema, type Template, type TemplateChanges, type TemplateInput } from '../../shared/templates';
import type { GatewayClient } from '../api/gateway-client';

export interface TemplatesGateway {
  changes(since: string): Promise<TemplateChanges>;
  /** PUT under the device's id: repeating it is harmless (the HTTP client may retry). */
  put(id: string, template: TemplateInput): Promise<Template>;
  delete(id: string): Promise<void>;
}

const path = (id: string) => `/templates/${encodeURIComponent(id)}`;

export function createTemplatesGateway(client: GatewayClient): TemplatesGateway {
  return {
    changes: (since) => client.json({ type: 'templates', path: '/templates', query: { since, limit: 200 } }, templateChangesSchema),
    put: (id, template) => client.json({ type: 'templates', method: 'PUT', path: path(id), json: template }, templateSchema),
    delete: async (id) => void (await client.json({ type: 'templates', method: 'DELETE', path: path(id) }, z.object({ ok: z.literal(true) }))),
  };
}

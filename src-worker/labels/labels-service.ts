/**
 * The engine's LabelService (shared/worker-api.ts): label table changes through the
 * gateway, which decides (a name taken, the limit). Its answer — the whole table — is
 * written to the account's cache at once (mail-store/settings-rows.ts) and every tab's
 * settings hear of it, without waiting for the delta that brings the same table.
 */
import * as z from 'zod';
import type { LabelsDoc } from '../../shared/api/labels';
import { TernError } from '../../shared/errors';
import { labelColorSchema, type Label } from '../../shared/labels';
import type { LabelService } from '../../shared/worker-api';
import type { MailTable } from '../db/mail-schema';
import { withWrite, type LocalStore } from '../db/store';
import { writeLabels } from '../mail-store/settings-rows';
import type { LabelsGateway } from './labels-gateway';

export interface EngineLabelsDeps {
  readonly open: (accountId: string) => Promise<LocalStore<MailTable>>;
  readonly gateway: (accountId: string) => Promise<LabelsGateway>;
  /** The cached table changed: the tabs' settings follow. */
  readonly changed: () => void;
}

const accountId = z.string().min(1).max(64);
const labelId = z.string().regex(/^[1-9]\d{0,15}$/);
const name = z.string().max(1000);
const createSchema = z.object({ accountId, name, color: labelColorSchema });
const updateSchema = z.object({ accountId, labelId, name: name.optional(), color: labelColorSchema.optional() });
const removeSchema = z.object({ accountId, labelId });

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TernError('InvalidParameter', { detail: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) });
  return parsed.data;
}

export class EngineLabels implements LabelService {
  constructor(private readonly deps: EngineLabelsDeps) {}

  async create(params: Parameters<LabelService['create']>[0]): Promise<readonly Label[]> {
    const { accountId, name, color } = parse(createSchema, params);
    return this.keep(accountId, await (await this.deps.gateway(accountId)).create({ name, color }));
  }

  async update(params: Parameters<LabelService['update']>[0]): Promise<readonly Label[]> {
    const { accountId, labelId, name, color } = parse(updateSchema, params);
    const patch = { ...(name === undefined ? {} : { name }), ...(color === undefined ? {} : { color }) };
    return this.keep(accountId, await (await this.deps.gateway(accountId)).update(labelId, patch));
  }

  async remove(params: Parameters<LabelService['remove']>[0]): Promise<readonly Label[]> {
    const { accountId, labelId } = parse(removeSchema, params);
    return this.keep(accountId, await (await this.deps.gateway(accountId)).remove(labelId));
  }

  private async keep(accountId: string, doc: LabelsDoc): Promise<readonly Label[]> {
    await withWrite(await this.deps.open(accountId), ['FeatureSettings'], (tx) => writeLabels(tx, doc));
    this.deps.changed();
    return doc.labels;
  }
}

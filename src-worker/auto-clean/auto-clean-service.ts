/**
 * The engine's AutoCleanService (shared/worker-api.ts, issue 17 point 3): auto-clean rules
 * live and run on the gateway (they run with every browser closed), so each call goes straight
 * through; nothing is cached or queued offline — a preview or a move must say what the mail
 * server holds now.
 */
import * as z from 'zod';
import { autoCleanInputSchema, type AutoCleanDoc, type AutoCleanInput, type AutoCleanPreview, type AutoCleanRun } from '../../shared/auto-clean';
import { TernError } from '../../shared/errors';
import type { AutoCleanService } from '../../shared/worker-api';
import type { AutoCleanGateway } from './auto-clean-gateway';

const accountSchema = z.object({ accountId: z.string().min(1).max(64) });
const idSchema = z.string().regex(/^[1-9]\d{0,15}$/);
const inputSchema = accountSchema.extend({ input: autoCleanInputSchema });
const ruleSchema = accountSchema.extend({ ruleId: idSchema });
const updateSchema = ruleSchema.extend({ input: autoCleanInputSchema });
const runSchema = accountSchema.extend({ runId: idSchema });

/** Params from a tab are parsed, never trusted (DESIGN §5). */
function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TernError('InvalidParameter', { detail: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) });
  return parsed.data;
}

export class EngineAutoClean implements AutoCleanService {
  constructor(private readonly deps: { readonly gateway: (accountId: string) => Promise<AutoCleanGateway> }) {}

  async get(params: { readonly accountId: string }): Promise<AutoCleanDoc> {
    return (await this.deps.gateway(parse(accountSchema, params).accountId)).doc();
  }

  async preview(params: { readonly accountId: string; readonly input: AutoCleanInput }): Promise<AutoCleanPreview> {
    const { accountId, input } = parse(inputSchema, params);
    return (await this.deps.gateway(accountId)).preview(input);
  }

  async save(params: { readonly accountId: string; readonly ruleId?: string; readonly input: AutoCleanInput }): Promise<AutoCleanDoc> {
    if (params.ruleId === undefined) {
      const { accountId, input } = parse(inputSchema, params);
      return (await this.deps.gateway(accountId)).create(input);
    }
    const { accountId, ruleId, input } = parse(updateSchema, params);
    return (await this.deps.gateway(accountId)).update(ruleId, input);
  }

  async remove(params: { readonly accountId: string; readonly ruleId: string }): Promise<AutoCleanDoc> {
    const { accountId, ruleId } = parse(ruleSchema, params);
    return (await this.deps.gateway(accountId)).remove(ruleId);
  }

  async runNow(params: { readonly accountId: string; readonly ruleId: string }): Promise<AutoCleanRun> {
    const { accountId, ruleId } = parse(ruleSchema, params);
    return (await this.deps.gateway(accountId)).runNow(ruleId);
  }

  async undo(params: { readonly accountId: string; readonly runId: string }): Promise<AutoCleanRun> {
    const { accountId, runId } = parse(runSchema, params);
    return (await this.deps.gateway(accountId)).undo(runId);
  }
}

/**
 * The gateway's label routes (issue 17 point 1; the model in shared/labels.ts):
 *
 *   GET    /api/labels                 → LabelsDoc
 *   POST   /api/labels  LabelInput     → LabelsDoc: a new label, its keyword chosen by the
 *          gateway (LabelNameInvalid 400, LabelAlreadyExists 409, LabelLimitReached 403)
 *   PATCH  /api/labels/:id LabelPatch  → LabelsDoc: renamed or recoloured; the keyword stays
 *   DELETE /api/labels/:id             → LabelsDoc: the label and its keyword on every message
 *
 * Each change writes one 'labels' entry to the account's transaction log, and the delta
 * carries the whole (small) document, so every device has the same table. Applying a label
 * is a bulk action (shared/api/actions.ts, `label`/`unlabel` with its keyword). All of it is
 * the plan's `labels` feature (FeatureNotInPlan 402).
 */
import * as z from 'zod';
import { labelColorSchema, labelSchema } from '../labels';

export const labelsDocSchema = z.object({
  labels: z.array(labelSchema),
  /**
   * Whether the mail server keeps new keywords (its INBOX's PERMANENTFLAGS has `\*`): when
   * not, labels are still listed but other mail programs will not see them, and the
   * Settings page says so. Null until the gateway has asked the server.
   */
  serverKeepsLabels: z.boolean().nullable(),
});
export type LabelsDoc = z.infer<typeof labelsDocSchema>;

/** The name is checked by the gateway (labelNameProblem), so a person reads why, not a schema's words. */
export const labelInputSchema = z.object({ name: z.string().max(1000), color: labelColorSchema });
export type LabelInput = z.infer<typeof labelInputSchema>;

export const labelPatchSchema = z
  .object({ name: z.string().max(1000).optional(), color: labelColorSchema.optional() })
  .refine((patch) => patch.name !== undefined || patch.color !== undefined, { message: 'Nothing to change.' });
export type LabelPatch = z.infer<typeof labelPatchSchema>;

export const labelIdSchema = z.string().regex(/^[1-9]\d{0,15}$/);

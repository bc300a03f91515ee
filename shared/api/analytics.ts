import { z } from 'zod';
import { ANALYTICS_EVENTS, type AnalyticsEventName } from '../analytics-events';

const eventNameSchema = z.enum(Object.keys(ANALYTICS_EVENTS) as [AnalyticsEventName, ...AnalyticsEventName[]]);
const flatValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One event record as the worker sends it (spec §3 "Analytics event"). */
export const analyticsEventRecordSchema = z.object({
  eventName: eventNameSchema,
  eventTs: z.number().int(),
  attrs: z.record(z.string(), z.union([flatValueSchema, z.array(z.string())])).and(z.object({ event_id: z.string() })),
  hattrs: z.record(z.string(), flatValueSchema),
  entityId: z.string().optional(),
});

/** POST <api>/analytics/addEvents and POST <api>/analytics/addPreAuthEvents (spec §7). The reply body is not read. */
export const addEventsBodySchema = z.object({
  events: z.array(analyticsEventRecordSchema).min(1).max(100),
  product: z.literal('email'),
  type: z.literal('flock_account'),
});
export type AddEventsBody = z.infer<typeof addEventsBodySchema>;

import * as z from 'zod';
import { ANALYTICS_EVENTS, type AnalyticsEventName } from '../analytics-events';

const eventNameSchema = z.enum(Object.keys(ANALYTICS_EVENTS) as [AnalyticsEventName, ...AnalyticsEventName[]]);
const flatValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The base properties every event carries (spec §3). */
const basePropertiesSchema = z.object({
  locale: z.string(),
  timezone: z.string(),
  app_version: z.string(),
  os: z.string(),
  os_version: z.string(),
  browser: z.string(),
  browser_version: z.string(),
  device_id: z.string(),
  device: z.literal('web'),
  no_of_accounts: z.number().int().nonnegative(),
  account_ids: z.array(z.string()),
  primary_account_id: z.string().nullable(),
});

/** One event record as the worker sends it (spec §3 "Analytics event"). */
export const analyticsEventRecordSchema = z.object({
  eventName: eventNameSchema,
  eventTs: z.number().int(),
  // event_id is a unique key (one copy per retried batch): bounded, as an index entry is on PostgreSQL (2,704 bytes).
  attrs: basePropertiesSchema.extend({ event_id: z.string().max(128) }).catchall(z.union([flatValueSchema, z.array(z.string())])),
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

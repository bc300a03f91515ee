/** POST /api/unsubscribe (issue 17 point 2): leave a sender's mailing list, by one of its messages. */
import * as z from 'zod';

export const unsubscribeRequestSchema = z.object({
  /** A message of the sender's that carries List-Unsubscribe (its mirror id). */
  messageId: z.string().regex(/^[1-9]\d{0,15}$/),
});
export type UnsubscribeRequest = z.infer<typeof unsubscribeRequestSchema>;

/**
 * What the gateway did: `oneClick` — it POSTed RFC 8058's body and the list's server took it;
 * `mailto` — it sent the unsubscribe mail through the account's SMTP; `url` — only a web page is
 * offered, which the person opens themselves (the app asked them before calling).
 */
export const unsubscribeResultSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('oneClick') }),
  z.object({ method: z.literal('mailto'), to: z.string() }),
  z.object({ method: z.literal('url'), url: z.string() }),
]);
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;

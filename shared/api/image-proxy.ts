/**
 * The private image proxy's calls (issue 19 point 6). The engine asks the gateway to sign the
 * remote image URLs of a message the person allowed; the frame then loads each through the
 * signed gateway path, and the sender sees the gateway, never the reader.
 */
import * as z from 'zod';

/** At most this many URLs per call (a newsletter has dozens; more stay blocked). */
export const MAX_SIGNED_IMAGES = 500;

/** POST /api/proxy/sign */
export const signImagesRequestSchema = z.object({
  urls: z.array(z.string().min(1).max(4096)).max(MAX_SIGNED_IMAGES),
});
export type SignImagesRequest = z.infer<typeof signImagesRequestSchema>;

/** Remote URL → the gateway path that loads it (`/api/proxy/image?…`); URLs not http(s) are left out. */
export interface SignImagesResponse {
  readonly signed: Readonly<Record<string, string>>;
}

/**
 * The `sandbox` of every frame that shows mail HTML.
 *
 *   - No `allow-scripts`, ever. Scripts in mail must never run, whatever slipped past
 *     the sanitiser; the sandbox is the wall that holds when everything else fails.
 *   - `allow-same-origin` lets this page read the frame's document to size the frame to
 *     its content and to catch `mailto:` clicks. It is safe only because scripts cannot
 *     run in the frame: together with `allow-scripts` it would let the mail remove its
 *     own sandbox (the trap ProtonMail's getIframeSandboxAttributes.ts documents).
 *   - `allow-popups` lets links open (they all have target=_blank), and
 *     `allow-popups-to-escape-sandbox` lets the opened site work normally instead of
 *     inheriting this sandbox.
 * Nothing else: no forms, no top navigation, no modals, no downloads, no pointer lock.
 */
export const MAIL_FRAME_SANDBOX = 'allow-same-origin allow-popups allow-popups-to-escape-sandbox';

/**
 * The frame of a very large body (IsolatedMailFrame.tsx): the same without
 * `allow-same-origin`. Its document has an opaque origin, so Chromium lays it out in a
 * process of its own (measured: a 20 MB table held this page's main thread 8.9 s in a
 * same-origin frame, 0.2 s in this one); this page cannot read it, so it is not sized to
 * its content (it scrolls inside) and `mailto:` links are not caught.
 */
export const ISOLATED_MAIL_FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

/** A sandbox string must never grant scripts; checked by tests and at render time. */
export function grantsScripts(sandbox: string): boolean {
  return sandbox
    .toLowerCase()
    .split(/\s+/)
    .some((token) => token === 'allow-scripts');
}

/**
 * The frame of a very large HTML body (issue point 14: "Show the whole message" of a 20 MB
 * mail). Parsing and laying out tens of megabytes is the heavy part of showing it, and in
 * a same-origin frame it runs on this page's main thread, freezing the app for seconds.
 * Without `allow-same-origin` the frame's document has an opaque origin and Chromium
 * renders it in another process (frame-sandbox.ts has the figures), so the app stays
 * responsive. The price: the page cannot reach into it, so the frame has a fixed height and
 * scrolls inside, and it keeps the mail's own colours (frame-theme.ts needs its document).
 * The walls are those of MailFrame: the pipeline's document (sanitised, its own CSP), no
 * `allow-scripts`.
 */
import { grantsScripts, ISOLATED_MAIL_FRAME_SANDBOX } from './frame-sandbox';

export interface IsolatedMailFrameProps {
  /** The frame document from `renderMailHtml`. */
  readonly srcdoc: string;
  /** The frame's accessible name, e.g. "Message from Alice". */
  readonly title: string;
}

export function IsolatedMailFrame({ srcdoc, title }: IsolatedMailFrameProps) {
  if (grantsScripts(ISOLATED_MAIL_FRAME_SANDBOX)) throw new Error('The mail frame must never allow scripts.');
  return (
    <iframe
      className="tern-mail-frame tern-mail-frame-isolated"
      title={title}
      sandbox={ISOLATED_MAIL_FRAME_SANDBOX}
      referrerPolicy="no-referrer"
      srcDoc={srcdoc}
      // Not sized to its content (this page cannot read it): most of the window, scrolling inside.
      style={{ height: '75vh' }}
    />
  );
}

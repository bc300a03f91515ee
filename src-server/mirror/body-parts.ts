import type { MessageStructureObject } from 'imapflow';
import { structureView } from './attachments';
import { chooseBody } from './body-choice';

/**
 * Where a message's body text lives, read from its BODYSTRUCTURE when it is mirrored, so
 * opening the message fetches those parts alone (reading/body-fetch.ts) instead of the
 * whole message with its attachments. The choice is body-choice.ts's, as for the snippet
 * and the attachment list. The rest of the structure the readers need is the attachment
 * list (part, encoding, size), stored beside it.
 */
export interface BodyParts {
  /** IMAP section of the plain text body, or null. */
  readonly text: string | null;
  /** IMAP section of the HTML body, or null. */
  readonly html: string | null;
}

/**
 * The section of a single-part message's body: its MIME header is the message's own
 * header, so the part is fetched as BODY[TEXT], and header and text together are the
 * whole message.
 */
export const WHOLE_BODY = 'TEXT';

/** The body's parts in a BODYSTRUCTURE (both null for a message without body text). */
export function bodyPartsOf(structure: MessageStructureObject | undefined): BodyParts {
  if (!structure) return { text: null, html: null };
  const choice = chooseBody(structure, structureView);
  // imapflow gives the root of a single-part message no part number.
  const section = (node: MessageStructureObject | null) => (node ? (node.part ?? WHOLE_BODY) : null);
  return { text: section(choice.text), html: section(choice.html) };
}

/**
 * The `messages.body_parts` column: "<text>|<html>" with an empty side for none (a few
 * bytes a row; a JSON object would be three times that over a 100,000-message mirror).
 */
export function encodeBodyParts(parts: BodyParts): string {
  return `${parts.text ?? ''}|${parts.html ?? ''}`;
}

/** Null for a row mirrored before the column existed (its body is read whole) or an unreadable value. */
export function decodeBodyParts(column: string | null): BodyParts | null {
  if (column === null) return null;
  const match = /^([\d.]*|TEXT)\|([\d.]*|TEXT)$/.exec(column);
  if (!match) return null;
  return { text: match[1] || null, html: match[2] || null };
}

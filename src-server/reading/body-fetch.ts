import { randomBytes } from 'node:crypto';
import type { ImapFlow, MessageStructureObject } from 'imapflow';
import type { StoredAttachment } from '../mirror/attachments';
import { WHOLE_BODY, type BodyParts } from '../mirror/body-parts';
import { base64DecodedSize, probeFor, quotedPrintableSize, SAMPLE_BYTES, type SizeProbe } from './attachment-sizes';

/** A body as fetched: a message to parse, and the attachments' exact sizes by part (where they could be told). */
export interface FetchedBody {
  readonly source: Buffer;
  readonly sizes: ReadonlyMap<string, number>;
}

/**
 * The body text of message `uid` of the selected folder, fetched as its parts (BODY.PEEK:
 * the header, and each chosen part with its MIME header) and put back together as a
 * message MailParser reads like the original — the same header, the same part headers
 * (charset, transfer encoding, format=flowed) over the same bytes — minus everything
 * else: attachments, other alternatives, inline images (which the reader loads through
 * the attachment route, by Content-ID, when it shows them). The same FETCH brings the
 * BODYSTRUCTURE and the first bytes of each base64 attachment, a second one (only when
 * there are such attachments) their last bytes, for their exact sizes
 * (attachment-sizes.ts). Null when the server no longer has the message.
 *
 * A single-part message is its header and BODY[TEXT], i.e. the whole message as it is.
 * Otherwise the message header loses its Content-Type and Content-Transfer-Encoding and
 * the chosen parts become the alternatives of a new multipart/alternative, plain text
 * first, which body-choice.ts (the parser's choice) reads back as the same text and HTML.
 * The caller must hold the connection (the mirror's queue).
 */
export async function fetchBody(client: ImapFlow, uid: number, parts: BodyParts, attachments: readonly StoredAttachment[]): Promise<FetchedBody | null> {
  const sections = [parts.text, parts.html].filter((part): part is string => part !== null);
  const keys = sections.flatMap((part) => (part === WHOLE_BODY ? [part] : [`${part}.MIME`, part]));
  const heads = attachments.map((attachment) => ({ key: attachment.part, start: 0, maxLength: SAMPLE_BYTES }));
  const message = await client.fetchOne(String(uid), { uid: true, headers: true, bodyStructure: true, bodyParts: [...keys, ...heads] }, { uid: true });
  if (!message || !message.headers) return null;
  const bytes = (key: string) => message.bodyParts?.get(key.toLowerCase()) ?? Buffer.alloc(0);
  const source = sections.includes(WHOLE_BODY)
    ? Buffer.concat([message.headers, bytes(WHOLE_BODY)])
    : assemble(message.headers, sections.map((part) => ({ mime: bytes(`${part}.MIME`), content: bytes(part) })));
  return { source, sizes: await measure(client, uid, attachments, message.bodyStructure, bytes) };
}

/** The attachments' exact sizes: from BODYSTRUCTURE, the heads already fetched, and one more FETCH for tails and small QP parts. */
async function measure(
  client: ImapFlow,
  uid: number,
  attachments: readonly StoredAttachment[],
  structure: MessageStructureObject | undefined,
  head: (part: string) => Buffer,
): Promise<Map<string, number>> {
  const nodes = new Map<string, MessageStructureObject>();
  const walk = (node: MessageStructureObject) => {
    if (node.part) nodes.set(node.part, node);
    for (const child of node.childNodes ?? []) walk(child);
  };
  if (structure) walk(structure);
  const sizes = new Map<string, number>();
  const later: { probe: Extract<SizeProbe, { kind: 'base64' | 'qp' }>; key: string; start: number }[] = [];
  for (const attachment of attachments) {
    const probe = probeFor(attachment, nodes.get(attachment.part));
    if (probe.kind === 'exact') sizes.set(attachment.part, probe.size);
    else if (probe.kind === 'base64' && probe.encodedSize <= SAMPLE_BYTES) {
      // The head is the whole part.
      const size = base64DecodedSize(probe.encodedSize, head(probe.part), head(probe.part));
      if (size !== null) sizes.set(attachment.part, size);
    } else if (probe.kind === 'base64') later.push({ probe, key: probe.part, start: probe.encodedSize - SAMPLE_BYTES });
    else if (probe.kind === 'qp') later.push({ probe, key: probe.part, start: 0 });
  }
  if (later.length === 0) return sizes;
  const bodyParts = later.map(({ key, start, probe }) => (probe.kind === 'qp' ? key : { key, start, maxLength: SAMPLE_BYTES }));
  const ends = await client.fetchOne(String(uid), { uid: true, bodyParts }, { uid: true });
  for (const { probe } of later) {
    const fetched = ends ? ends.bodyParts?.get(probe.part) : undefined;
    if (!fetched) continue;
    const size = probe.kind === 'qp' ? quotedPrintableSize(fetched) : base64DecodedSize(probe.encodedSize, head(probe.part), fetched);
    if (size !== null) sizes.set(probe.part, size);
  }
  return sizes;
}

const CRLF = '\r\n';

/** The fields of a header block that describe the top-level MIME entity (the parts' own headers replace them). */
const ENTITY_FIELDS = /^(content-type|content-transfer-encoding)\s*:/i;

/** `header` (ending in its blank line) without the entity fields, folded continuation lines included. */
export function withoutEntityFields(header: Buffer): Buffer {
  const text = header.toString('latin1');
  // A field runs from a line's start up to the next line that does not start with a space or tab.
  const fields = text.split(/\r?\n(?![ \t])/);
  return Buffer.from(
    fields
      .filter((field) => field !== '' && !ENTITY_FIELDS.test(field))
      .map((field) => field + CRLF)
      .join(''),
    'latin1',
  );
}

/** A multipart/alternative message of the given parts, under the message's own header. */
export function assemble(header: Buffer, parts: readonly { mime: Buffer; content: Buffer }[]): Buffer {
  let boundary: string;
  do boundary = `tern-body-${randomBytes(12).toString('hex')}`;
  while (parts.some((part) => part.content.includes(boundary) || part.mime.includes(boundary)));
  const chunks: Buffer[] = [withoutEntityFields(header), Buffer.from(`Content-Type: multipart/alternative; boundary="${boundary}"${CRLF}${CRLF}`)];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}${CRLF}`));
    // The MIME header as the server gives it ends in its blank line; one without it (none at all) gets one.
    chunks.push(part.mime.length > 0 ? part.mime : Buffer.from(CRLF));
    chunks.push(part.content, Buffer.from(CRLF));
  }
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return Buffer.concat(chunks);
}

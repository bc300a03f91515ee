import type { MessageStructureObject } from 'imapflow';
import { describe, expect, test } from 'vitest';
import { bodyPartsOf, decodeBodyParts, encodeBodyParts, WHOLE_BODY } from '../../../../src-server/mirror/body-parts';

const leaf = (type: string, part?: string, disposition?: string): MessageStructureObject => ({ type, part, disposition }) as MessageStructureObject;
const multi = (type: string, part: string | undefined, childNodes: MessageStructureObject[]): MessageStructureObject => ({ type, part, childNodes }) as MessageStructureObject;

describe('where the body text is, from BODYSTRUCTURE', () => {
  test('a single-part message is its whole body (BODY[TEXT]), an alternative its two leaves, attachments are never the body', () => {
    expect(bodyPartsOf(leaf('text/plain'))).toEqual({ text: WHOLE_BODY, html: null });
    expect(bodyPartsOf(leaf('text/html'))).toEqual({ text: null, html: WHOLE_BODY });
    const mixed = multi('multipart/mixed', undefined, [
      multi('multipart/alternative', '1', [leaf('text/plain', '1.1'), multi('multipart/related', '1.2', [leaf('text/html', '1.2.1'), leaf('image/png', '1.2.2')])]),
      leaf('text/html', '2', 'attachment'),
    ]);
    expect(bodyPartsOf(mixed)).toEqual({ text: '1.1', html: '1.2.1' });
    expect(bodyPartsOf(multi('multipart/mixed', undefined, [leaf('image/png', '1'), leaf('application/pdf', '2')]))).toEqual({ text: null, html: null });
    expect(bodyPartsOf(undefined)).toEqual({ text: null, html: null });
  });

  test('the column round-trips; a row from before it (NULL) or an unreadable value reads as unknown', () => {
    for (const parts of [{ text: '1.1', html: '1.2.1' }, { text: WHOLE_BODY, html: null }, { text: null, html: '2' }, { text: null, html: null }]) {
      expect(decodeBodyParts(encodeBodyParts(parts))).toEqual(parts);
    }
    expect(encodeBodyParts({ text: '1', html: '2' })).toBe('1|2');
    expect(decodeBodyParts(null)).toBeNull();
    expect(decodeBodyParts('1;2')).toBeNull();
  });
});

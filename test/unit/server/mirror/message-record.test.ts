import type { FetchMessageObject } from 'imapflow';
import { describe, expect, test } from 'vitest';
import { toMessageRecord } from '../../../../src-server/mirror/message-record';

/** A fetched message with the header block the mirror asks for (METADATA_QUERY's fields). */
function fetched(headerLines: string[], envelope: FetchMessageObject['envelope'] = {}): FetchMessageObject {
  const block = Buffer.concat([...headerLines.map((line) => Buffer.from(`${line}\r\n`, 'latin1')), Buffer.from('\r\n')]);
  return { seq: 1, uid: 7, envelope, headers: block, flags: new Set(), internalDate: new Date(0), size: 10 } as unknown as FetchMessageObject;
}

describe('a message record reads the raw header block once for every field it takes from it', () => {
  test('List-Unsubscribe with its one-click POST, folded over lines; List-Id makes it bulk', () => {
    const record = toMessageRecord(
      fetched(['References: <a@x>', 'List-Unsubscribe: <mailto:off@list.example>,', ' <https://list.example/off?u=1>', 'List-Unsubscribe-Post: List-Unsubscribe=One-Click', 'List-Id: <news.list.example>']),
    );
    expect(record.unsubscribe).toEqual({ http: 'https://list.example/off?u=1', mailto: 'mailto:off@list.example', oneClick: true });
    expect(record.bulk).toBe(true);
    expect(record.references).toEqual(['<a@x>']);
  });

  test('Precedence: bulk makes it bulk; a plain message is neither bulk nor unsubscribable', () => {
    expect(toMessageRecord(fetched(['Precedence:  Bulk'])).bulk).toBe(true);
    const plain = toMessageRecord(fetched(['Subject: hi'], { subject: 'hi' }));
    expect(plain.bulk).toBe(false);
    expect(plain.unsubscribe).toBeNull();
    expect(plain.subject).toBe('hi');
  });

  test('8-bit bytes: subject and sender name from the raw fields (UTF-8, or Windows-1252 when not UTF-8), the envelope elsewhere', () => {
    const utf8 = Buffer.from('Subject: Grüße aus Köln\r\nFrom: Jürgen <j@x.de>\r\n\r\n', 'utf8');
    const record = toMessageRecord({
      ...fetched([]),
      headers: utf8,
      envelope: { subject: 'GrÃ¼Ãe', from: [{ name: 'JÃ¼rgen', address: 'j@x.de' }], to: [{ name: 'Bea', address: 'b@x.de' }] },
    } as FetchMessageObject);
    expect(record.subject).toBe('Grüße aus Köln');
    expect(record.from).toEqual([{ name: 'Jürgen', email: 'j@x.de' }]);
    expect(record.to).toEqual([{ name: 'Bea', email: 'b@x.de' }]);
    const latin1 = toMessageRecord({ ...fetched([]), headers: Buffer.from('Subject: caf\xe9\r\n\r\n', 'latin1'), envelope: { subject: 'caf?' } } as FetchMessageObject);
    expect(latin1.subject).toBe('café');
  });
});

import { expect, test } from 'vitest';
import type { AttachmentSummary } from '../../../../shared/api/mail';
import { showsPaperclip } from '../../../../shared/attachment-rules';
import { cidReferences, embeddedTypeOf, MAX_EMBEDDED_IMAGE_BYTES, normalContentId, partsToEmbed } from '../../../../src-worker/queries/cid-parts';

const part = (index: number, over: Partial<AttachmentSummary>): AttachmentSummary => ({
  index,
  filename: `part-${index}.png`,
  size: 5 * 1024,
  contentType: 'image/png',
  contentId: null,
  ...over,
});

test('an image the HTML names is embedded whatever its size, even below the 512-byte inline-image bound', () => {
  const parts = [
    part(0, { contentId: 'spacer@x', size: 43, contentType: 'image/gif', filename: 'spacer.gif' }),
    part(1, { contentId: 'logo@x', size: 300 }),
    part(2, { contentId: 'exactly@x', size: 512 }),
    part(3, { contentId: 'banner@x', size: 5 * 1024 }),
  ];
  const html = '<img src="cid:spacer@x"><img src="cid:logo@x"><img src="cid:exactly@x"><img src="cid:banner@x">';
  expect(partsToEmbed(parts, html).map((chosen) => chosen.index)).toEqual([0, 1, 2, 3]);
  // The attachment list is unchanged by this: none of these small inline parts earns the paperclip.
  expect(parts.filter(showsPaperclip)).toEqual([]);
});

test('Content-IDs match case-insensitively, with or without angle brackets on either side', () => {
  const parts = [
    part(0, { contentId: '<Logo.ABC@Mail.Example>', size: 200 }),
    part(1, { contentId: 'chart@x', size: 200 }),
    part(2, { contentId: ' < spaced@x > ', size: 200 }),
  ];
  const html = `<img src="cid:logo.abc@mail.example"><img src='CID:%3Cchart%40X%3E'><td background=cid:SPACED@x></td>`;
  expect(partsToEmbed(parts, html).map((chosen) => chosen.index)).toEqual([0, 1, 2]);
  expect(normalContentId('<A@B>')).toBe('a@b');
  expect([...cidReferences('<img src="cid:&lt;Ent@X&gt;"> <div style="background:url(cid:css@x)">')]).toEqual(['ent@x', 'css@x']);
});

test('parts the HTML does not name, non-images and parts without a Content-ID are not fetched', () => {
  const parts = [
    part(0, { contentId: 'photo@x', size: 300 }), // marked inline, never referenced
    part(1, { contentId: 'doc@x', contentType: 'application/pdf', filename: 'a.pdf', size: 300 }),
    part(2, { contentId: 'vector@x', contentType: 'image/svg+xml', filename: 'v.svg', size: 300 }),
    part(3, { contentId: null, size: 300 }),
  ];
  const html = '<img src="cid:doc@x"><img src="cid:vector@x"><p>part-3.png</p>';
  expect(partsToEmbed(parts, html)).toEqual([]);
  expect(partsToEmbed(parts, null)).toEqual([]);
});

test('an octet-stream part with a picture name is embedded with the picture type', () => {
  expect(embeddedTypeOf({ contentType: 'application/octet-stream', filename: 'logo.JPG' })).toBe('image/jpeg');
  expect(embeddedTypeOf({ contentType: 'image/PNG; name=x.png', filename: '' })).toBe('image/png');
  expect(embeddedTypeOf({ contentType: 'application/octet-stream', filename: 'setup.exe' })).toBeNull();
  const parts = [part(0, { contentId: 'o@x', contentType: 'application/octet-stream', filename: 'o.gif', size: 100 })];
  expect(partsToEmbed(parts, '<img src="cid:o@x">')).toHaveLength(1);
});

test('the body budget still applies: one huge image stays out, the small ones come', () => {
  const parts = [part(0, { contentId: 'huge@x', size: MAX_EMBEDDED_IMAGE_BYTES + 1 }), part(1, { contentId: 'tiny@x', size: 10 })];
  expect(partsToEmbed(parts, '<img src="cid:huge@x"><img src="cid:tiny@x">').map((chosen) => chosen.index)).toEqual([1]);
});

test('two parts with one Content-ID: the first is embedded', () => {
  const parts = [part(0, { contentId: 'dup@x', size: 100 }), part(1, { contentId: '<DUP@x>', size: 100 })];
  expect(partsToEmbed(parts, '<img src="cid:dup@x">').map((chosen) => chosen.index)).toEqual([0]);
});

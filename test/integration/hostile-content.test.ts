// Hostile content over real Postfix and Dovecot (issue points 12 and 14): an SVG with a
// script and a PNG arrive by SMTP; their previews come from the gateway through a
// short-lived signed link, sandboxed, as an allow-listed type; a forged, expired or
// unsigned link opens nothing. A 20 MB HTML mail's body comes bounded, the whole on demand.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_SHOWN_HTML_CHARS, messageBodySchema } from '../../shared/api/mail';
import { previewLinkSchema } from '../../shared/api/reading';
import type { SqlValue } from '../../src-server/store/sql';
import { PREVIEW_CSP } from '../../src-server/reading/download-headers';
import { PNG_LOGO } from '../harness/seed/assets';
import { eventually, OWNER, startGatewayFixture, type GatewayFixture } from './support/gateway-fixture';

let fx: GatewayFixture;
beforeAll(async () => {
  fx = await startGatewayFixture({ name: 'hostile', count: 5 });
  await fx.mirror.whenFullyMirrored;
});
afterAll(() => fx?.close());

const api = (path: string, token: string | null = fx.token) => fetch(`${fx.baseUrl}${path}`, { headers: token === null ? {} : { authorization: `Bearer ${token}` } });
const sql = <T>(query: string, ...params: SqlValue[]) => fx.ctx.store.all<T>(query, params);

async function received(subject: string): Promise<{ id: number; attachments: { index: number; filename: string; contentType: string }[] }> {
  const row = await eventually(async () => (await sql<{ id: number; attachments_json: string }>('SELECT id, attachments_json FROM messages WHERE subject = ?', subject))[0], 15_000, `“${subject}” mirrored`);
  return { id: row.id, attachments: JSON.parse(row.attachments_json) as { index: number; filename: string; contentType: string }[] };
}

describe('attachment previews (issue point 12)', () => {
  const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>localStorage.setItem('pwned', '1')</script><rect width="40" height="40" fill="red"/></svg>`;
  const subject = `Logo and photo ${Date.now()}`;
  let message: Awaited<ReturnType<typeof received>>;

  beforeAll(async () => {
    await fx.send({
      from: 'Mallory <mallory@kite.test>',
      to: OWNER.email,
      subject,
      text: 'See attached.',
      attachments: [
        { filename: 'logo.svg', content: SVG, contentType: 'image/svg+xml' },
        { filename: 'photo.png', content: PNG_LOGO.bytes, contentType: 'image/png' },
        { filename: 'page.html', content: '<script>alert(1)</script>', contentType: 'text/html' },
      ],
    });
    message = await received(subject);
  });

  const link = async (index: number) => {
    const reply = await api(`/api/messages/${message.id}/attachments/${index}/preview-link`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    return previewLinkSchema.parse(await reply.json());
  };
  const part = (name: string) => message.attachments.find((attachment) => attachment.filename === name)!;

  test('an SVG preview is served inline under a sandbox CSP with nosniff: its script can never run in the app’s origin', async () => {
    const { path, expiresAt } = await link(part('logo.svg').index);
    expect(expiresAt).toBeGreaterThan(Date.now());
    // No session: the link is the key (an <img>, a frame or a new tab sends no bearer token).
    const reply = await api(`/api${path}`, null);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('image/svg+xml');
    expect(reply.headers.get('content-security-policy')).toBe(PREVIEW_CSP);
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('content-disposition')).toMatch(/^inline; filename="logo\.svg"/);
    expect(await reply.text()).toBe(SVG);
  });

  test('a PNG preview carries exactly the bytes that were sent', async () => {
    const { path } = await link(part('photo.png').index);
    const reply = await api(`/api${path}`, null);
    expect(reply.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await reply.arrayBuffer()).equals(PNG_LOGO.bytes)).toBe(true);
  });

  test('HTML is never previewed; forged links, other parts and links without a session open nothing', async () => {
    const html = await link(part('page.html').index);
    const refused = await api(`/api${html.path}`, null);
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: string }).error).toBe('InvalidOperation');

    const { path } = await link(part('logo.svg').index);
    const token = path.split('/').at(-1)!;
    const [account, , index, expiry, mac] = token.split('.');
    for (const forged of [`${account}.${message.id + 1}.${index}.${expiry}.${mac}`, `${account}.${message.id}.${index}.${Number(expiry) + 60_000}.${mac}`, 'x']) {
      const reply = await api(`/api/attachment-preview/${forged}`, null);
      expect(reply.status).toBe(404);
      expect(((await reply.json()) as { error: string }).error).toBe('FileNotFound');
    }
    const noSession = await api(`/api/messages/${message.id}/attachments/0/preview-link`, null);
    expect(noSession.status).toBeGreaterThanOrEqual(400);
  });
});

describe('a 20 MB HTML body (issue point 14)', () => {
  const subject = `The whole archive ${Date.now()}`;
  const row = '<tr><td>Entry of the archive, with some text to make it long.</td></tr>\n';
  const html = `<html><body><h1 id="start">Start of the archive</h1><table>${row.repeat(Math.ceil((20 * 1024 * 1024) / row.length))}</table><p id="end">End of the archive</p></body></html>`;

  test('the body route sends its first part with the whole size; ?whole=1 sends all of it', async () => {
    await fx.send({ from: 'Archive <archive@kite.test>', to: OWNER.email, subject, html, text: 'The archive.' });
    const { id } = await received(subject);
    const started = performance.now();
    const first = await api(`/api/messages/${id}/body`);
    const bounded = messageBodySchema.parse(await first.json());
    console.log(`[hostile] 20 MB HTML body, first part over HTTP: ${Math.round(performance.now() - started)} ms (${first.headers.get('server-timing')})`);
    expect(bounded.html!.length).toBeLessThanOrEqual(MAX_SHOWN_HTML_CHARS);
    expect(bounded.html).toContain('Start of the archive');
    expect(bounded.html).not.toContain('End of the archive');
    // mailparser may normalise line ends: the size is that of the HTML the mail carried, within a few bytes per line.
    expect(bounded.truncated!.htmlBytes).toBeGreaterThanOrEqual(20 * 1024 * 1024);
    const whole = messageBodySchema.parse(await (await api(`/api/messages/${id}/body?whole=1`)).json());
    expect(whole.truncated).toBeUndefined();
    expect(Buffer.byteLength(whole.html!, 'utf8')).toBe(bounded.truncated!.htmlBytes);
    expect(whole.html).toContain('End of the archive');
    expect((await api(`/api/messages/${id}/body?whole=yes`)).status).toBe(400);
  }, 60_000);
});

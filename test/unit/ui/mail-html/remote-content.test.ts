// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { BLOCKED_SRC_ATTR, blockRemoteContent, classifyUrl, srcsetUrls } from '../../../../src-ui/mail-html/remote-content';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

describe('classifyUrl', () => {
  test.each([
    ['https://t.example/a.png', 'remote'],
    ['http://t.example/a.png', 'remote'],
    ['//t.example/a.png', 'remote'],
    [' \thttps://t.example/', 'remote'],
    ['data:image/png;base64,AA==', 'embedded'],
    ['cid:logo@x', 'embedded'],
    ['blob:https://app/1234', 'embedded'],
    ['/api/logout', 'unusable'],
    ['images/a.png', 'unusable'],
    ['ftp://t.example/a.png', 'unusable'],
  ])('%s is %s', (url, origin) => expect(classifyUrl(url)).toBe(origin));
});

test('srcsetUrls reads every candidate, commas in descriptors included', () => {
  expect(srcsetUrls('https://t.example/a.png 1x, https://t.example/b.png 2x')).toEqual(['https://t.example/a.png', 'https://t.example/b.png']);
  expect(srcsetUrls('a.png, b.png 480w,c.png')).toEqual(['a.png', 'b.png', 'c.png']);
});

describe('blockRemoteContent, blocked', () => {
  test('parks remote <img src> and counts it', () => {
    const doc = parse('<img id="i" src="https://t.example/pixel.gif" width="1" height="1">');
    expect(blockRemoteContent(doc, { proxied: null }).blocked).toBe(1);
    const img = doc.getElementById('i');
    expect(img?.hasAttribute('src')).toBe(false);
    expect(img?.getAttribute(BLOCKED_SRC_ATTR)).toBe('https://t.example/pixel.gif');
  });

  test('blocks srcset, <picture> sources, poster and media src', () => {
    const doc = parse(
      '<picture><source srcset="https://t.example/a.webp 1x"><img src="data:image/png;base64,AA==" srcset="https://t.example/a.png 2x"></picture><video poster="https://t.example/p.jpg" src="https://t.example/v.mp4"></video><audio src="https://t.example/a.mp3"></audio>',
    );
    expect(blockRemoteContent(doc, { proxied: null }).blocked).toBe(5);
    expect(doc.querySelector('[srcset]')).toBeNull();
    expect(doc.querySelector('[poster]')).toBeNull();
    expect(doc.querySelector('video[src], audio[src]')).toBeNull();
    expect(doc.querySelector('img')?.getAttribute('src')).toMatch(/^data:image/);
  });

  test('blocks background= attributes', () => {
    const doc = parse('<table background="https://t.example/bg.png"><tr><td background="//t.example/td.png">x</td></tr></table>');
    expect(blockRemoteContent(doc, { proxied: null }).blocked).toBe(2);
    expect(doc.querySelector('[background]')).toBeNull();
  });

  test('blocks url() in style attributes, escaped spellings too', () => {
    const doc = parse('<div id="a" style="background: url(https://t.example/a.png) no-repeat; color: red"></div><div id="b" style="background-image: \\75 rl(https://t.example/b.png)"></div>');
    expect(blockRemoteContent(doc, { proxied: null }).blocked).toBe(2);
    expect(doc.getElementById('a')?.getAttribute('style')).toBe('background: none no-repeat; color: red');
    expect(doc.getElementById('b')?.getAttribute('style')).not.toContain('t.example');
  });

  test('blocks url(), image-set() and @import in <style>', () => {
    const doc = parse('<style>@import url(https://t.example/x.css); body { background: url("https://t.example/bg.png") } .h { background-image: image-set("https://t.example/h.png" 1x) }</style>');
    expect(blockRemoteContent(doc, { proxied: null }).blocked).toBe(3);
    const css = doc.querySelector('style')?.textContent ?? '';
    expect(css).not.toContain('t.example');
    expect(css).not.toContain('@import');
  });

  test('drops relative URLs whatever is allowed (they would hit our own origin)', () => {
    const doc = parse('<img id="i" src="/api/logout"><div id="d" style="background: url(/api/x)"></div>');
    expect(blockRemoteContent(doc, { proxied: { '/api/logout': PROXY('x'), '/api/x': PROXY('y') } }).blocked).toBe(0);
    expect(doc.getElementById('i')?.hasAttribute('src')).toBe(false);
    expect(doc.getElementById('d')?.getAttribute('style')).toBe('background: none');
  });

  test('keeps embedded images and fragment references', () => {
    const doc = parse('<img src="data:image/gif;base64,R0lGOD=="><img src="blob:http://app/1"><div style="filter: url(#f)"></div>');
    expect(blockRemoteContent(doc, { proxied: null }).blocked).toBe(0);
    expect(doc.querySelectorAll('img[src]')).toHaveLength(2);
    expect(doc.querySelector('div')?.getAttribute('style')).toBe('filter: url(#f)');
  });
});

describe('blockRemoteContent, allowed', () => {
  const A = 'https://t.example/a.png';
  const B = 'https://t.example/b.png';
  const C = 'https://t.example/c.png';
  const H = 'http://t.example/h.png';

  test('points remote images and CSS at the proxy, keeps srcset descriptors and embedded candidates, counts nothing blocked', () => {
    const doc = parse(
      `<img src="${A}" srcset="${B} 2x, data:image/gif;base64,R0lGOD== 3x"><div style="background: url(${C}) no-repeat"></div>` +
        `<table background=" ${H}"><tr><td>x</td></tr></table><style>.h { background-image: image-set("${B}" 1x, "${C}" 2x) }</style>`,
    );
    const result = blockRemoteContent(doc, { proxied: { [A]: PROXY('a'), [B]: PROXY('b'), [C]: PROXY('c'), [H]: PROXY('h') } });
    expect(result).toEqual({ blocked: 0, remote: 5, remoteUrls: [A, B, H, C] });
    expect(doc.querySelector('img')?.getAttribute('src')).toBe(PROXY('a'));
    expect(doc.querySelector('img')?.getAttribute('srcset')).toBe(`${PROXY('b')} 2x, data:image/gif;base64,R0lGOD== 3x`);
    expect(doc.querySelector('div')?.getAttribute('style')).toBe(`background: url("${PROXY('c')}") no-repeat`);
    expect(doc.querySelector('table')?.getAttribute('background')).toBe(PROXY('h'));
    expect(doc.querySelector('style')?.textContent).toBe(`.h { background-image: url("${PROXY('b')}") }`);
    expect(doc.documentElement.outerHTML).not.toMatch(/https?:\/\/t\.example/);
  });

  test('a remote URL the gateway did not sign never loads from the sender', () => {
    const doc = parse(`<img id="signed" src="${A}"><img id="unsigned" src="${B}"><div style="background: url(${C})"></div><img id="mixed" srcset="${A} 1x, ${C} 2x">`);
    const result = blockRemoteContent(doc, { proxied: { [A]: PROXY('a') } });
    expect(result.remoteUrls).toEqual([A, B, C]);
    expect(doc.getElementById('signed')?.getAttribute('src')).toBe(PROXY('a'));
    expect(doc.getElementById('unsigned')?.hasAttribute('src')).toBe(false);
    expect(doc.getElementById('mixed')?.hasAttribute('srcset')).toBe(false);
    expect(doc.querySelector('div')?.getAttribute('style')).toBe('background: none');
  });

  test('still removes @import (remote stylesheets never load)', () => {
    const doc = parse('<style>@import "https://t.example/x.css"; p { color: red }</style>');
    blockRemoteContent(doc, { proxied: { 'https://t.example/x.css': PROXY('x') } });
    expect(doc.querySelector('style')?.textContent).not.toContain('@import');
  });
});

function PROXY(name: string): string {
  return `https://mail.tern.test/api/proxy/image?u=${name}&e=1&s=sig`;
}

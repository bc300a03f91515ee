import { decodeEntities } from '../mirror/html-text';

/**
 * The text/plain alternative of an HTML-only message, so text-only readers and spam
 * filters see the words and the message goes out as multipart/alternative. Block ends
 * become line breaks, links keep their address; no DOM, nothing here is rendered.
 */
export function plainAlternative(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<(head|style|script|title|template)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, '')
    .replace(/<a\b[^>]*\bhref\s*=\s*"(https?:[^"]*|mailto:[^"]*)"[^>]*>([\s\S]*?)<\/a\s*>/gi, (_whole, href: string, label: string) => {
      const inner = label.replace(/<[^>]*>/g, '').trim();
      return inner && inner !== href ? `${inner} (${href})` : href;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(p|div|h[1-6]|li|tr|blockquote|pre|table|ul|ol)\s*>/gi, '\n')
    .replace(/<[^>]*(?:>|$)/g, '');
  return decodeEntities(text)
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

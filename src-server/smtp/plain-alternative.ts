import { htmlToPlainText } from '../mirror/html-text';

/**
 * The text/plain alternative of an HTML-only message, so text-only readers and spam
 * filters see the words and the message goes out as multipart/alternative. The HTML is
 * read by a real parser (mirror/html-text.ts): paragraphs one blank line apart, `<br>` and
 * the composer's lines one newline, links as "text <url>", quotes with "> ".
 */
export function plainAlternative(html: string): string {
  return htmlToPlainText(html);
}

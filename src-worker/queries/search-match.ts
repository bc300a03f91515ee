/**
 * Search over cached messages with the gateway's operators (shared/api/reading.ts):
 * words, "quoted phrases", from: to: subject: has:attachment is:unread is:read is:starred
 * in: before: after:. Parsed once per query into a predicate over MessageMeta.
 */
import type { Folder, MessageMeta } from '../../shared/api/mail';

type Test = (message: MessageMeta, folders: ReadonlyMap<string, Folder>) => boolean;

const TOKEN = /(-?)(?:(\w+):)?(?:"([^"]*)"|(\S+))/g;

const lower = (text: string) => text.toLowerCase();
const addressText = (addresses: readonly { name: string; email: string }[]) => lower(addresses.map((a) => `${a.name} ${a.email}`).join(' '));

function dayOf(text: string): number | null {
  const parsed = Date.parse(text.replaceAll('/', '-'));
  return Number.isNaN(parsed) ? null : parsed;
}

function testFor(operator: string | undefined, value: string): Test {
  const needle = lower(value);
  switch (operator?.toLowerCase()) {
    case 'from':
      return (m) => addressText(m.from).includes(needle);
    case 'to':
      return (m) => addressText([...m.to, ...m.cc]).includes(needle);
    case 'subject':
      return (m) => lower(m.subject).includes(needle);
    case 'has':
      return needle === 'attachment' ? (m) => m.attachments.length > 0 : () => false;
    case 'is':
      if (needle === 'unread') return (m) => m.unread;
      if (needle === 'read') return (m) => !m.unread;
      if (needle === 'starred') return (m) => m.starred;
      return () => false;
    case 'in':
      return (m, folders) => {
        const folder = folders.get(m.folderId);
        return !!folder && (lower(folder.name) === needle || lower(folder.path) === needle || folder.specialUse === needle);
      };
    case 'before': {
      const day = dayOf(value);
      return (m) => day !== null && m.date < day;
    }
    case 'after': {
      const day = dayOf(value);
      return (m) => day !== null && m.date >= day;
    }
    default: {
      // An unknown operator ("re:", "http:") is just text.
      const text = operator ? lower(`${operator}:${value}`) : needle;
      return (m) => lower(`${m.subject} ${m.snippet}`).includes(text) || addressText([...m.from, ...m.to, ...m.cc]).includes(text);
    }
  }
}

/** A predicate for `query`; an empty query matches nothing. */
export function compileSearch(query: string): Test {
  const tests: Test[] = [];
  for (const match of query.matchAll(TOKEN)) {
    const [, negate, operator, quoted, bare] = match;
    const value = quoted ?? bare ?? '';
    if (!value) continue;
    const test = testFor(operator, value);
    tests.push(negate ? (m, f) => !test(m, f) : test);
  }
  if (tests.length === 0) return () => false;
  return (message, folders) => tests.every((test) => test(message, folders));
}

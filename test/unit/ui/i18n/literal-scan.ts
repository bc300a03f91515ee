/**
 * Finds user-visible text written into the UI's source instead of taken from the message
 * catalogue: JSX text, and string literals (also inside a template, a ?: or an ||) given to
 * an attribute or property people read or hear (aria-label, title, placeholder, alt, label,
 * message…). A literal without a letter ("·", "×", "—") is a symbol, not a sentence.
 *
 * Parsed with oxc (rolldown's parseAst): the installed `typescript` is 7, the native
 * compiler, which has no JavaScript parser API.
 */
import { parseAst } from 'rolldown/parseAst';
import { allMessageIds } from '../../../../shared/strings';

/** A literal that names a catalogue message (`description: 'keyboard.archive'`) is a lookup, not text. */
const MESSAGE_IDS: ReadonlySet<string> = new Set(allMessageIds());

/** Attribute and property names whose string value a person reads or hears. */
const VISIBLE_NAMES = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
  'title',
  'placeholder',
  'alt',
  'label',
  'hint',
  'message',
  'description',
  'heading',
  'confirmLabel',
  'emptyText',
  'text',
]);

/** Letters with a meaning in the UI that are not words to translate: search syntax shown as code. */
export const ALLOWED_LITERALS = new Set<string>(['from:bob is:unread', '-in:inbox']);

export interface Literal {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

interface AstNode {
  readonly type: string;
  readonly start: number;
  readonly [key: string]: unknown;
}

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
const hasLetter = (text: string) => /\p{L}/u.test(text);

/** String literals an expression can evaluate to directly (not through a call: t('…') is the catalogue). */
function literalsOf(node: AstNode | null | undefined): { node: AstNode; text: string }[] {
  if (!node) return [];
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' ? [{ node, text: node.value }] : [];
    case 'TemplateLiteral':
      return (node.quasis as AstNode[]).map((quasi) => ({ node: quasi, text: String((quasi.value as { cooked?: string }).cooked ?? '') }));
    case 'JSXExpressionContainer':
    case 'ParenthesizedExpression':
    case 'TSAsExpression':
      return literalsOf(node.expression as AstNode);
    case 'ConditionalExpression':
      return [...literalsOf(node.consequent as AstNode), ...literalsOf(node.alternate as AstNode)];
    case 'LogicalExpression':
    case 'BinaryExpression':
      return node.operator === '+' || node.type === 'LogicalExpression' ? [...literalsOf(node.left as AstNode), ...literalsOf(node.right as AstNode)] : [];
    default:
      return [];
  }
}

function nameOf(name: unknown): string | undefined {
  if (!isNode(name)) return undefined;
  if (name.type === 'JSXIdentifier' || name.type === 'Identifier') return name.name as string;
  if (name.type === 'Literal' && typeof name.value === 'string') return name.value;
  return undefined;
}

/** The literals of one source file (.tsx parses JSX). */
export function findLiterals(fileName: string, code: string): Literal[] {
  const ast = parseAst(code, { lang: fileName.endsWith('.tsx') ? 'tsx' : 'ts' }, fileName) as unknown as AstNode;
  const lineStarts = [0];
  for (let index = code.indexOf('\n'); index !== -1; index = code.indexOf('\n', index + 1)) lineStarts.push(index + 1);
  const lineOf = (offset: number) => lineStarts.findLastIndex((start) => start <= offset) + 1;
  const found: Literal[] = [];
  const report = (node: AstNode, text: string) => {
    // JSX text keeps entities as written (&lt;): they are symbols.
    const trimmed = text.replace(/&[a-z]+;/g, ' ').replace(/\s+/g, ' ').trim();
    if (hasLetter(trimmed) && !ALLOWED_LITERALS.has(trimmed) && !MESSAGE_IDS.has(trimmed)) found.push({ file: fileName, line: lineOf(node.start), text: trimmed });
  };
  const reportAll = (value: unknown) => {
    for (const literal of literalsOf(value as AstNode)) report(literal.node, literal.text);
  };
  const visit = (node: AstNode, parent: AstNode | null) => {
    // A key's name in <kbd> is a symbol, as on the keyboard (the shortcuts dialog, the empty pane).
    if (node.type === 'JSXText') {
      if (!(parent?.type === 'JSXElement' && nameOf((parent.openingElement as AstNode).name) === 'kbd')) report(node, node.value as string);
    }
    else if (node.type === 'JSXExpressionContainer' && parent && (parent.type === 'JSXElement' || parent.type === 'JSXFragment')) reportAll(node.expression);
    else if (node.type === 'JSXAttribute' && VISIBLE_NAMES.has(nameOf(node.name) ?? '')) reportAll(node.value);
    else if (node.type === 'Property' && !node.computed && VISIBLE_NAMES.has(nameOf(node.key) ?? '')) reportAll(node.value);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type') continue;
      if (Array.isArray(value)) for (const child of value) isNode(child) && visit(child, node);
      else if (isNode(value)) visit(value, node);
    }
  };
  visit(ast, null);
  return found;
}

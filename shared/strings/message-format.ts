/**
 * The subset of ICU MessageFormat the catalogue uses, parsed once per message and cached:
 *   {name}                                   interpolation (numbers through Intl.NumberFormat)
 *   {n, plural, =0 {…} one {# …} other {…}}  Intl.PluralRules of the locale; `#` is n formatted
 *   {x, select, a {…} other {…}}             a choice by value
 * nested to any depth. Quoting as ICU does it: `''` is one apostrophe; an apostrophe before
 * `{`, `}` or `#` starts literal text up to the next single apostrophe (`'{'` is a brace);
 * any other apostrophe is itself ("don't" needs no doubling).
 * Own code instead of a library keeps the lazy app chunk small (DESIGN §8).
 */

export type MessageValue = string | number;
export type MessageValues = Readonly<Record<string, MessageValue>>;

type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'arg'; readonly name: string }
  | { readonly kind: 'pound' }
  | { readonly kind: 'plural'; readonly name: string; readonly options: ReadonlyMap<string, readonly Node[]> }
  | { readonly kind: 'select'; readonly name: string; readonly options: ReadonlyMap<string, readonly Node[]> };

/** A message that does not parse: a catalogue mistake, thrown so a unit test finds it. */
export class MessageSyntaxError extends Error {
  override readonly name = 'MessageSyntaxError';
}

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node[] {
    const nodes = this.nodes(false, 0);
    if (this.at < this.source.length) this.fail('an unmatched }');
    return nodes;
  }

  private fail(what: string): never {
    throw new MessageSyntaxError(`${what} at ${this.at} in "${this.source}"`);
  }

  /** Text and arguments up to a `}` closing the enclosing option (not consumed) or the end. */
  private nodes(inPlural: boolean, depth: number): Node[] {
    const nodes: Node[] = [];
    let text = '';
    const flush = () => {
      if (text) nodes.push({ kind: 'text', text });
      text = '';
    };
    while (this.at < this.source.length) {
      const char = this.source[this.at]!;
      if (char === "'") {
        text += this.quoted(inPlural);
      } else if (char === '{') {
        flush();
        nodes.push(this.argument(depth, inPlural));
      } else if (char === '}') {
        if (depth === 0) this.fail('an unmatched }');
        break;
      } else if (char === '#' && inPlural) {
        flush();
        nodes.push({ kind: 'pound' });
        this.at++;
      } else {
        text += char;
        this.at++;
      }
    }
    flush();
    return nodes;
  }

  /** At an apostrophe: returns the literal text it stands for and moves past it. */
  private quoted(inPlural: boolean): string {
    const next = this.source[this.at + 1];
    if (next === "'") {
      this.at += 2;
      return "'";
    }
    if (next === '{' || next === '}' || (next === '#' && inPlural)) {
      let literal = '';
      this.at++;
      while (this.at < this.source.length) {
        const char = this.source[this.at]!;
        if (char === "'") {
          if (this.source[this.at + 1] === "'") {
            literal += "'";
            this.at += 2;
            continue;
          }
          this.at++;
          return literal;
        }
        literal += char;
        this.at++;
      }
      this.fail('an unclosed quote');
    }
    this.at++;
    return "'";
  }

  private word(): string {
    this.space();
    const match = /^[^\s{},]+/.exec(this.source.slice(this.at));
    if (!match) this.fail('a missing name');
    this.at += match[0].length;
    this.space();
    return match[0];
  }

  private space() {
    while (/\s/.test(this.source[this.at] ?? '')) this.at++;
  }

  private expect(char: string) {
    if (this.source[this.at] !== char) this.fail(`a missing ${char}`);
    this.at++;
  }

  private argument(depth: number, inPlural: boolean): Node {
    this.expect('{');
    const name = this.word();
    if (this.source[this.at] === '}') {
      this.at++;
      return { kind: 'arg', name };
    }
    this.expect(',');
    const type = this.word();
    if (type !== 'plural' && type !== 'select') this.fail(`an unknown argument type ${type}`);
    this.expect(',');
    const options = new Map<string, Node[]>();
    this.space();
    while (this.source[this.at] !== '}') {
      const selector = this.word();
      if (type === 'plural' && selector.startsWith('offset:')) this.fail('offset (not supported)');
      this.expect('{');
      // `#` inside a select inside a plural is still the plural's count.
      options.set(selector, this.nodes(type === 'plural' || inPlural, depth + 1));
      this.expect('}');
      this.space();
      if (this.at >= this.source.length) this.fail('an unclosed argument');
    }
    if (!options.has('other')) this.fail(`a ${type} without other`);
    this.at++;
    return { kind: type, name, options };
  }
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();

function numberFormat(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format;
}

function pluralRule(locale: string): Intl.PluralRules {
  let rule = pluralRules.get(locale);
  if (!rule) pluralRules.set(locale, (rule = new Intl.PluralRules(locale)));
  return rule;
}

function valueOf(values: MessageValues, name: string): MessageValue {
  const value = values[name];
  // A missing value is a caller's mistake; show the placeholder rather than "undefined".
  return value === undefined ? `{${name}}` : value;
}

function render(nodes: readonly Node[], locale: string, values: MessageValues, pound: number | undefined): string {
  let out = '';
  for (const node of nodes) {
    switch (node.kind) {
      case 'text':
        out += node.text;
        break;
      case 'pound':
        out += pound === undefined ? '#' : numberFormat(locale).format(pound);
        break;
      case 'arg': {
        const value = valueOf(values, node.name);
        out += typeof value === 'number' ? numberFormat(locale).format(value) : value;
        break;
      }
      case 'plural': {
        const count = Number(valueOf(values, node.name));
        const chosen = node.options.get(`=${count}`) ?? node.options.get(pluralRule(locale).select(count)) ?? node.options.get('other')!;
        out += render(chosen, locale, values, count);
        break;
      }
      case 'select': {
        const value = String(valueOf(values, node.name));
        out += render(node.options.get(value) ?? node.options.get('other')!, locale, values, pound);
        break;
      }
    }
  }
  return out;
}

/** Parses a message (throws MessageSyntaxError on a malformed one). */
export function parseMessage(source: string): readonly Node[] {
  return new Parser(source).parse();
}

const parsed = new Map<string, readonly Node[]>();

/** Formats one ICU message in a locale; parsed messages are cached by their text. */
export function formatMessage(locale: string, source: string, values: MessageValues = {}): string {
  let nodes = parsed.get(source);
  if (!nodes) parsed.set(source, (nodes = parseMessage(source)));
  return render(nodes, locale, values, undefined);
}

/** The names of the values a message uses, sorted (a translation must use the same). */
export function messageArguments(source: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: readonly Node[]) => {
    for (const node of nodes) {
      if (node.kind === 'arg' || node.kind === 'plural' || node.kind === 'select') names.add(node.name);
      if (node.kind === 'plural' || node.kind === 'select') for (const option of node.options.values()) walk(option);
    }
  };
  walk(parseMessage(source));
  return [...names].sort();
}

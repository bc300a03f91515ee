import { expect, test } from 'vitest';
import { cleanName, displayName, naturalName, shortName } from '../../../../src-ui/kit/person-name';
import { sendersLabel } from '../../../../src-ui/thread-list/row-format';
import { initials, recipientSummary, senderLine } from '../../../../src-ui/conversation/message-format';

const SHORT_NAMES: readonly (readonly [name: string, email: string, short: string])[] = [
  ['Smith, John', 'john.smith@contoso.example.com', 'John'],
  ['"Smith, John"', 'john.smith@contoso.example.com', 'John'],
  ['“Smith, John”', 'john.smith@contoso.example.com', 'John'],
  ['Smith,John', 'john.smith@contoso.example.com', 'John'],
  ['van der Berg, Anna Maria', 'anna@x.test', 'Anna'],
  ['Smith,', 'john.smith@contoso.example.com', 'Smith'],
  ['John Smith', 'john@x.test', 'John'],
  ['  John   Smith  ', 'john@x.test', 'John'],
  ["'John Smith'", 'john@x.test', 'John'],
  ['John Smith, Jr.', 'john@x.test', 'John'],
  ['Smith, John, Jr.', 'john@x.test', 'John'],
  ['Dr. John Smith', 'john@x.test', 'John'],
  ['Prof Ada Lovelace', 'ada@x.test', 'Ada'],
  ['Dr. Mbeki (Barrister)', 'barrister.mbeki@inheritance.test', 'Mbeki'],
  ['John Smith (Acme)', 'john@acme.test', 'John'],
  ['J. Smith', 'j@x.test', 'J. Smith'],
  ['J. R. Smith', 'j@x.test', 'J. R. Smith'],
  ['J. Robert Oppenheimer', 'rob@x.test', 'Robert'],
  ['Jean-Luc Picard', 'jl@x.test', 'Jean-Luc'],
  ['Siobhán O\'Brien', 'siobhan@x.test', 'Siobhán'],
  ['Cher', 'cher@x.test', 'Cher'],
  ['Dr.', 'dr@x.test', 'Dr.'],
  ['山田太郎', 'taro@x.test', '山田太郎'],
  ['山田 太郎', 'taro@x.test', '山田'],
  ['Yamada Tarō', 'taro@x.test', 'Yamada'],
  ['Дмитрий Иванов', 'd@x.test', 'Дмитрий'],
  ['🦊', 'fox@x.test', '🦊'],
  ['✈️ TravelDeals', 'deals@x.test', 'TravelDeals'],
  ['TravelDeals ✈️', 'deals@x.test', 'TravelDeals'],
  ['bob@kite.test', 'bob@kite.test', 'bob'],
  ['"bob@kite.test"', 'bob@kite.test', 'bob'],
  ['', 'bob@kite.test', 'bob'],
  ['   ', 'carol@tern.test', 'carol'],
  ['""', 'dave@tern.test', 'dave'],
];

test.each(SHORT_NAMES)('short name of %j <%s> is %j', (name, email, short) => {
  expect(shortName({ name, email })).toBe(short);
});

test('full names lose their quotes and extra spaces; an empty name is the address', () => {
  expect(cleanName(' "Smith,  John" ')).toBe('Smith, John');
  expect(cleanName('"Say \\"hi\\" Bob"')).toBe('Say "hi" Bob');
  expect(cleanName("O'Brien")).toBe("O'Brien");
  expect(displayName({ name: '"Smith, John"', email: 'j@x.test' })).toBe('Smith, John');
  expect(displayName({ name: '', email: 'bob@kite.test' })).toBe('bob@kite.test');
  expect(naturalName('Smith, John')).toBe('John Smith');
  expect(naturalName('John Smith, PhD')).toBe('John Smith');
  expect(senderLine({ name: '"Smith, John"', email: 'j@x.test' })).toBe('Smith, John <j@x.test>');
});

test('the thread row: a comma in a name never doubles up with the separator', () => {
  const me = { name: 'Alice Tern', email: 'alice@tern.test' };
  const smith = { name: 'Smith, John', email: 'john.smith@contoso.example.com' };
  const own = new Set(['alice@tern.test']);
  expect(sendersLabel([smith, me], 2, own)).toBe('John, me (2)');
  expect(sendersLabel([me, smith], 2, own)).toBe('me, John (2)');
  expect(sendersLabel([smith], 1, own)).toBe('Smith, John');
  expect(sendersLabel([{ name: '', email: 'bob@kite.test' }, smith], 3)).toBe('bob, John (3)');
});

test('the message header: recipients by short name, initials in reading order', () => {
  const to = [
    { name: 'Karen Thomas', email: 'karen@x.test' },
    { name: "Siobhán O'Brien", email: 'siobhan@x.test' },
    { name: 'Smith, John', email: 'john@x.test' },
  ];
  expect(recipientSummary(to, [], ['alice@tern.test'])).toBe('to Karen, Siobhán, John');
  expect(recipientSummary([to[2]!], [{ name: '', email: 'alice@tern.test' }], ['alice@tern.test'])).toBe('to John, me');
  expect(recipientSummary([...to, { name: '', email: 'bob@kite.test' }], [], [])).toBe('to Karen, Siobhán, John and 1 other');
  expect(initials({ name: 'Smith, John', email: 'john@x.test' })).toBe('JS');
  expect(initials({ name: 'Karen Thomas', email: 'karen@x.test' })).toBe('KT');
});

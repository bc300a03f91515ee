import { describe, expect, test } from 'vitest';
import { fillTemplate, templateValues, templateVariablesIn } from '../../../shared/templates';

const template = { subject: 'Hello {{ first_name }}', bodyHtml: '<p>Dear {{first_name}} {{last_name}},</p><p>{{FIRST_NAME}} at {{email}} — {{sender_name}}</p>' };

describe('template variables', () => {
  test('values come from the first recipient (name split into first and the rest) and the sender', () => {
    expect(templateValues({ recipient: { name: ' Bob  van Tern ', email: 'bob@tern.test' }, senderName: 'Alice' })).toEqual({
      first_name: 'Bob',
      last_name: 'van Tern',
      full_name: 'Bob van Tern',
      email: 'bob@tern.test',
      sender_name: 'Alice',
    });
    expect(templateVariablesIn(template.subject, template.bodyHtml)).toEqual(['first_name', 'last_name', 'email', 'sender_name']);
  });

  test('filled in the subject as text and in the body HTML-escaped, every spelling of a name', () => {
    const result = fillTemplate(template, { recipient: { name: '<b>Bob</b> "Q" & Co', email: 'bob@tern.test' }, senderName: 'Alice' });
    expect(result.missing).toEqual([]);
    expect(result.filled).toEqual({
      subject: 'Hello <b>Bob</b>',
      bodyHtml: '<p>Dear &lt;b&gt;Bob&lt;/b&gt; &quot;Q&quot; &amp; Co,</p><p>&lt;b&gt;Bob&lt;/b&gt; at bob@tern.test — Alice</p>',
    });
  });

  test('a variable with no value (no recipient name, an unknown name) fills nothing and names it, unless blanks were chosen', () => {
    const withUnknown = { subject: '', bodyHtml: '<p>Hi {{first_name}}, {{favourite_colour}}</p>' };
    const refused = fillTemplate(withUnknown, { recipient: { name: '', email: 'bob@tern.test' } });
    expect(refused).toEqual({ filled: null, missing: ['first_name', 'favourite_colour'] });
    const blanks = fillTemplate(withUnknown, { recipient: { name: '', email: 'bob@tern.test' } }, { blanks: true });
    expect(blanks.filled?.bodyHtml).toBe('<p>Hi , </p>');
    expect(blanks.missing).toEqual(['first_name', 'favourite_colour']);
  });

  test('a template without variables is inserted as it is', () => {
    expect(fillTemplate({ subject: 'S', bodyHtml: '<p>{ not } {{ a var</p>' }, {})).toEqual({ filled: { subject: 'S', bodyHtml: '<p>{ not } {{ a var</p>' }, missing: [] });
  });
});

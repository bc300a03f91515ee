/**
 * Templates (issue 14 point 3; the spec's EmailTemplate): a name, a subject and a rich-text
 * body a person inserts into a message, with `{{first_name}}`-style variables filled from the
 * recipient. Stored on the gateway and read by every device from its own cursor (the spec's
 * `emailTemplateCursor`), like the address book's cards:
 *
 *   GET    /api/templates?since=<cursor>&limit=N → TemplateChanges: templates changed or deleted
 *          after the cursor, oldest change first ('' or '0': everything). A change writes one
 *          'templates' entry to the account's transaction log, so every device hears of it
 *          through the websocket and delta, then pulls.
 *   PUT    /api/templates/:id  TemplateInput → Template: creates it under the device's id or
 *          replaces it (the plan's `templates`: FeatureNotInPlan 402; TemplateTooLarge 400
 *          past MAX_TEMPLATE_CHARS; TemplateLimitReached 403 past MAX_TEMPLATES).
 *   DELETE /api/templates/:id → { ok } (deleting twice is fine; allowed on any plan).
 */
import * as z from 'zod';

/** Templates per account. */
export const MAX_TEMPLATES = 100;
/** A template's HTML, in characters (TemplateTooLarge past it): a page of text, not a newsletter. */
export const MAX_TEMPLATE_CHARS = 20_000;
/** Templates per page of changes (default 200). */
export const TEMPLATE_PAGE_MAX = 500;

export const templateIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a template id.');

/** What a person edits. The body's length is checked by the gateway (TemplateTooLarge), not here, so it can say so. */
export const templateInputSchema = z.object({
  name: z.string().trim().min(1, 'A template needs a name.').max(100),
  subject: z.string().max(998).default(''),
  /** Rich text from the composer's editor; sanitised again whenever it is shown or inserted. */
  bodyHtml: z.string().max(MAX_TEMPLATE_CHARS * 4).default(''),
});
export type TemplateInput = z.output<typeof templateInputSchema>;
export type TemplateDraft = z.input<typeof templateInputSchema>;

export const templateSchema = z.object({
  id: templateIdSchema,
  name: z.string(),
  subject: z.string(),
  bodyHtml: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Template = z.infer<typeof templateSchema>;

export const templateChangesQuerySchema = z.object({
  since: z.string().max(100).default(''),
  limit: z.coerce.number().int().min(1).max(TEMPLATE_PAGE_MAX).default(200),
});

export const templateChangesSchema = z.object({
  /** Templates created or changed after the cursor, in their current state. */
  templates: z.array(templateSchema),
  /** Ids of templates deleted after the cursor. */
  deleted: z.array(z.string()),
  /** Where to ask from next time (opaque; the engine keeps it as the account's emailTemplateCursor). */
  cursor: z.string(),
  hasMore: z.boolean(),
});
export type TemplateChanges = z.infer<typeof templateChangesSchema>;

// ── Variables ───────────────────────────────────────────────────────────────

/** The variables a template may hold, filled from the message's first recipient and its sender. */
export const TEMPLATE_VARIABLES = ['first_name', 'last_name', 'full_name', 'email', 'sender_name'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Who the message goes to and who sends it: where the variables' values come from. */
export interface TemplateContext {
  readonly recipient?: { readonly name: string; readonly email: string };
  readonly senderName?: string;
}

/** Each variable's value for this message ('' where there is none). */
export function templateValues(context: TemplateContext): Record<TemplateVariable, string> {
  const parts = (context.recipient?.name ?? '').split(/\s+/).filter(Boolean);
  return {
    first_name: parts[0] ?? '',
    last_name: parts.length > 1 ? parts.slice(1).join(' ') : '',
    full_name: parts.join(' '),
    email: context.recipient?.email.trim() ?? '',
    sender_name: context.senderName?.trim() ?? '',
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The variables a text names, once each, in order (unknown names too: they never have a value). */
export function templateVariablesIn(...texts: readonly string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(VARIABLE)) names.add(match[1]!.toLowerCase());
  return [...names];
}

/** What inserting a template gives: its subject and body with every variable filled. */
export interface FilledTemplate {
  readonly subject: string;
  readonly bodyHtml: string;
}

/**
 * Fills a template's variables. A variable with no value (an unknown name, or a recipient
 * without a name) is NOT silently dropped: `missing` names them and the text is not filled,
 * unless `blanks` says the person chose to leave them empty. Values are HTML-escaped in the
 * body (a recipient named `<b>` stays text), plain in the subject (a text field).
 */
export function fillTemplate(
  template: Pick<Template, 'subject' | 'bodyHtml'>,
  context: TemplateContext,
  options: { readonly blanks?: boolean } = {},
): { readonly filled: FilledTemplate; readonly missing: readonly string[] } | { readonly filled: null; readonly missing: readonly string[] } {
  const values: Record<string, string> = templateValues(context);
  const missing = templateVariablesIn(template.subject, template.bodyHtml).filter((name) => !values[name]);
  if (missing.length > 0 && !options.blanks) return { filled: null, missing };
  const value = (name: string) => values[name.toLowerCase()] ?? '';
  return {
    filled: {
      subject: template.subject.replace(VARIABLE, (_all, name: string) => value(name)),
      bodyHtml: template.bodyHtml.replace(VARIABLE, (_all, name: string) => escapeHtml(value(name))),
    },
    missing,
  };
}

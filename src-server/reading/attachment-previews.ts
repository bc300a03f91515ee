import type { PreviewLink } from '../../shared/api/reading';
import { TernError } from '../../shared/errors';
import { previewType } from '../../shared/preview-rules';
import type { MessageFile, MessageService } from './message-service';
import { PreviewLinks, type PreviewTarget } from './preview-links';

/** A part opened by a preview link, with the allow-listed type it is shown as. */
export interface PreviewFile {
  readonly file: MessageFile;
  readonly previewType: string;
}

/**
 * Attachment previews (issue point 12): a link signed for one part, then the part itself,
 * only as an allow-listed type (never the sender's type as-is, never HTML). The route adds
 * the sandboxing headers (reading/download-headers.ts).
 */
export class AttachmentPreviews {
  private readonly links: PreviewLinks;

  constructor(private readonly deps: { messages: MessageService; links?: PreviewLinks }) {
    this.links = deps.links ?? new PreviewLinks();
  }

  /** A link that opens one part for a few minutes (the tab cannot send the session's token from an <img>). */
  link(target: PreviewTarget): PreviewLink {
    const { token, expiresAt } = this.links.sign(target);
    return { path: `/attachment-preview/${token}`, expiresAt };
  }

  /** The part a link opens; FileNotFound / ExpiredLink for a bad link, InvalidOperation for a type not previewed. */
  async open(token: string): Promise<PreviewFile> {
    const { accountId, messageId, index } = this.links.verify(token);
    const file = await this.deps.messages.attachment(accountId, messageId, index);
    const type = previewType(file);
    if (type === null) throw new TernError('InvalidOperation');
    return { file, previewType: type };
  }
}

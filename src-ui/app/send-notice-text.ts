/**
 * What a send notice says (shared SendNotice): the message by its subject, what happened in
 * plain words, the catalogue's sentence for a failure and the mail server's own reply.
 */
import { isErrorName, TernError } from '../../shared/errors';
import type { SendNotice } from '../../shared/worker-mail-api';

const named = (subject: string) => (subject.trim() ? `“${subject.trim()}”` : 'Your message (no subject)');

export function sendNoticeText(notice: SendNotice): { readonly title: string; readonly message: string; readonly reply: string | undefined } {
  const reply = notice.error?.detail;
  switch (notice.kind) {
    case 'maybeSent':
      return {
        title: `${named(notice.subject)} may have been sent`,
        message: 'The connection to the mail server was lost just after the message went out, before the server confirmed it. Check Sent (or ask a recipient) before sending it again.',
        reply,
      };
    case 'notFiled':
      return { title: `${named(notice.subject)} was sent`, message: 'But no copy could be saved in your Sent folder.', reply: undefined };
    case 'notSent': {
      // The catalogue's sentence, whatever words the gateway put in its description.
      const name = notice.error?.name;
      const sentence = isErrorName(name) ? new TernError(name).message : (notice.error?.message ?? new TernError('SendFailed').message);
      return { title: `${named(notice.subject)} was not sent`, message: `${sentence} Your draft is kept.`, reply };
    }
  }
}

/**
 * What a send notice says (shared SendNotice): the message by its subject, what happened in
 * plain words, the catalogue's sentence for a failure and the mail server's own reply.
 */
import { isErrorName } from '../../shared/errors';
import type { Locale } from '../../shared/locales';
import { format } from '../../shared/strings';
import type { SendNotice } from '../../shared/worker-mail-api';

/** `locale`: the UI's language (English by default, as the tests read it). */
export function sendNoticeText(notice: SendNotice, locale: Locale = 'en'): { readonly title: string; readonly message: string; readonly reply: string | undefined } {
  const reply = notice.error?.detail;
  const subject = notice.subject.trim();
  const title = (kind: string) => format(locale, 'app.noticeTitle', { kind, subject: subject ? `“${subject}”` : '', named: subject ? 'yes' : 'no' });
  switch (notice.kind) {
    case 'maybeSent':
      return { title: title('maybeSent'), message: format(locale, 'app.noticeMaybeSent'), reply };
    case 'notFiled':
      return { title: title('notFiled'), message: format(locale, 'app.noticeNotFiled'), reply: undefined };
    case 'notSent': {
      // The catalogue's sentence, whatever words the gateway put in its description.
      const name = notice.error?.name;
      const sentence = isErrorName(name) ? format(locale, `errors.${name}`) : (notice.error?.message ?? format(locale, 'errors.SendFailed'));
      return { title: title('notSent'), message: `${sentence} ${format(locale, 'app.noticeDraftKept')}`, reply };
    }
  }
}

/** A failed SMTP attempt, as the outbox and the client see it. */
export interface SmtpFailure {
  /** Retrying cannot help (5xx, refused login, every recipient refused). */
  readonly permanent: boolean;
  /** The server's own words where there are some, else what went wrong; never a stack. */
  readonly reason: string;
  readonly responseCode: number | null;
  /** The server refused the size (552 / 5.3.4): MessageSizeExceeded rather than SendFailed. */
  readonly tooLarge: boolean;
}

interface NodemailerError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
  rejected?: unknown[];
  rejectedErrors?: { response?: string; responseCode?: number }[];
}

/** Refusals about the account or the message itself: sending the same again gets the same answer. */
const PERMANENT_CODES = new Set(['EAUTH', 'EENVELOPE', 'EMESSAGE', 'ETLS', 'ENOAUTH']);

export function classifySmtpError(error: unknown): SmtpFailure {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as NodemailerError;
  // All recipients refused: nodemailer names the per-recipient replies; the first one says why.
  const recipientReply = e.rejectedErrors?.find((entry) => entry.response)?.response;
  const responseCode = e.responseCode ?? e.rejectedErrors?.find((entry) => entry.responseCode)?.responseCode ?? null;
  const reason = (recipientReply ?? e.response ?? e.message ?? 'The mail server did not accept the message.').trim().slice(0, 1000);
  const tooLarge = responseCode === 552 || /\b5\.3\.4\b/.test(reason);
  // 4xx and network failures (refused, reset, timed out, DNS) may pass later: retried a few times.
  const permanent = responseCode !== null ? responseCode >= 500 : PERMANENT_CODES.has(e.code ?? '');
  return { permanent, reason, responseCode, tooLarge };
}

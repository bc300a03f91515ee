/**
 * Client request ids (spec §3 "Client request id"): `w_`, a UTC day-hour-minute-second
 * stamp, a request-type code, a counter that wraps at 1000, the last 3 characters of the
 * installation id and 4 random characters, e.g. `w_15093012DL007c1ek3q9`. Sent as
 * `X-Request-Id`; the gateway echoes it in its logs and error replies, so a support
 * ticket names one request of one installation.
 */

/** Two letters per kind of request, so an id alone tells what was asked. */
export const REQUEST_TYPE_CODES = {
  delta: 'DL',
  folders: 'FL',
  threads: 'TL',
  thread: 'TH',
  body: 'MB',
  attachment: 'AT',
  attachmentPreview: 'AP',
  bulkMessages: 'BM',
  bulkThreads: 'BT',
  draftCreate: 'DC',
  draftUpdate: 'DU',
  files: 'FU',
  send: 'SN',
  undoSend: 'US',
  scheduledSend: 'SS',
  scheduledCancel: 'SC',
  scheduledDelete: 'SD',
  outbox: 'OB',
  search: 'SR',
  status: 'ST',
  websocket: 'WS',
  preferences: 'PF',
  plan: 'PL',
  rules: 'RU',
  contacts: 'CT',
  imageProxy: 'IP',
  identities: 'ID',
  labels: 'LB',
  reminders: 'RM',
  followUp: 'FW',
  security: 'SE',
  templates: 'TM',
  unsubscribe: 'UN',
  autoClean: 'AC',
} as const;

export type RequestType = keyof typeof REQUEST_TYPE_CODES;

/** Spec §9: the request counter wraps at 1000 (ids carry 000..999). */
export const REQUEST_COUNTER_WRAP = 1000;

const RANDOM_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export interface RequestIdDeps {
  /** The installation (device) id; its last 3 characters go into every id. */
  readonly installationId: string;
  readonly now?: () => number;
  /** A number in [0, 1); injected so tests get fixed ids. */
  readonly random?: () => number;
}

/** Matches every id `createRequestIds` makes. */
export const REQUEST_ID_PATTERN = /^w_\d{8}[A-Z]{2}\d{3}[\w-]{3}[a-z0-9]{4}$/;

const two = (value: number) => String(value).padStart(2, '0');

/** A maker of request ids with its own counter (one per engine). */
export function createRequestIds(deps: RequestIdDeps): (type: RequestType) => string {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const installation = deps.installationId.slice(-3).padStart(3, '0');
  let counter = 0;
  return (type) => {
    const at = new Date(now());
    const stamp = `${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}`;
    const count = String(counter).padStart(3, '0');
    counter = (counter + 1) % REQUEST_COUNTER_WRAP;
    let tail = '';
    for (let i = 0; i < 4; i++) tail += RANDOM_ALPHABET[Math.floor(random() * RANDOM_ALPHABET.length)] ?? 'x';
    return `w_${stamp}${REQUEST_TYPE_CODES[type]}${count}${installation}${tail}`;
  };
}

/**
 * Issue 18, the address book's benchmarks:
 *  - import of 10,000 contacts (a Google CSV export): from the POST of the file to the gateway's
 *    job reporting it done — reading and checking the file, the plan against the book, and the
 *    writes in batches, each a change of the book every device hears of. A fresh gateway per
 *    run, so each run writes 10,000 new cards (a second import of one file writes nothing);
 *  - autocomplete with 20,000 contacts: one keystroke's lookup in the engine, the very steps of
 *    MailQueryService.suggestAddresses (read the account's Contact rows, match the prefix, rank),
 *    over 20,000 cards and 20,000 addresses seen in mail. Run in Node over fake-indexeddb, not
 *    in Chromium: the engine's code, another IndexedDB (a JavaScript one, slower to clone rows).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { contactImportSchema } from '../../../shared/api/contact-imports';
import type { Contact } from '../../../shared/contacts';
import { idbStoreFactory } from '../../../src-worker/db/idb-store';
import { MAIL_SCHEMA } from '../../../src-worker/db/mail-schema';
import { withRead, withWrite } from '../../../src-worker/db/store';
import { writeCard } from '../../../src-worker/mail-store/contact-cards';
import { orderSuggestions, suggestionCandidates, type SuggestionCandidate } from '../../../src-worker/queries/suggestion-order';
import { DATASETS } from '../lib/bench-env';
import { GatewayProcess } from '../lib/gateway-process';
import { repeat, type FigureSpec, type Scenario } from '../lib/scenario';

const IMPORT: FigureSpec = {
  key: '16.contacts-import-10k',
  item: 16,
  what: 'Import of 10,000 contacts (Google CSV): POST of the file → the gateway job done',
  unit: 'ms',
  budget: { text: '≤ 10 s', limit: 10_000 },
};
const SUGGEST: FigureSpec = {
  key: '16.contacts-suggest-20k',
  item: 16,
  what: 'Composer autocomplete with 20,000 contacts: one keystroke → ranked suggestions (engine, fake-indexeddb)',
  unit: 'ms',
  budget: { text: '≤ 30 ms', limit: 30 },
};

const FIRST = ['Anna', 'Bram', 'Chen', 'Dana', 'Emil', 'Fatima', 'Goran', 'Hana', 'Ivo', 'Jule', 'Kai', 'Lena', 'Milo', 'Nora', 'Olek', 'Pia'];
const LAST = ['Kite', 'Stone', 'Reed', 'Marsh', 'Vale', 'Holm', 'Brook', 'Frost', 'Lind', 'Moor', 'Ash', 'Birch'];

/** A Google Contacts export of `count` people (its header, BOM, multi-values in some rows). */
function googleCsv(count: number, run: number): string {
  const header = 'First Name,Middle Name,Last Name,Nickname,Organization Name,Notes,Labels,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value';
  const rows = Array.from({ length: count }, (_, i) => {
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
    const email = `${first}.${last}.${run}.${i}@example.test`.toLowerCase();
    const emails = i % 5 === 0 ? `${email} ::: ${first.toLowerCase()}${i}@home.test` : email;
    return `${first},,${last},,Org ${i % 97},,* myContacts,* Work,${emails},Mobile,+49 30 ${100000 + i}`;
  });
  return `\ufeff${[header, ...rows].join('\r\n')}\r\n`;
}

async function importOnce(gateway: GatewayProcess, token: string, csv: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${gateway.baseUrl}/api/contacts/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fileName: 'google.csv', data: Buffer.from(csv, 'utf8').toString('base64') }),
  });
  if (response.status !== 202) throw new Error(`import answered ${response.status}: ${await response.text()}`);
  let status = contactImportSchema.parse(await response.json());
  while (status.state === 'queued' || status.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 25));
    status = contactImportSchema.parse(await gateway.get(`/api/contacts/imports/${status.id}`, token));
  }
  const elapsed = performance.now() - started;
  if (status.state !== 'done' || status.created !== 10_000) throw new Error(`the import ended ${status.state} with ${status.created} created: ${JSON.stringify(status.error)}`);
  return elapsed;
}

async function suggestSamples(runs: number): Promise<number[]> {
  const store = await idbStoreFactory(new IDBFactory()).open('bench-contacts', MAIL_SCHEMA);
  // 20,000 cards and 20,000 addresses seen in mail (the tally's rows, with ranks).
  for (let from = 0; from < 20_000; from += 2_000) {
    await withWrite(store, ['Contact'], async (tx) => {
      for (let i = from; i < from + 2_000; i++) {
        const first = FIRST[i % FIRST.length]!;
        const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
        const card: Contact = { id: `card-${String(i).padStart(6, '0')}`, firstName: first, lastName: `${last}${i}`, emails: [`${first}.${last}${i}@example.test`.toLowerCase()], phones: [], company: '', notes: '', createdAt: 0, updatedAt: 0 };
        writeCard(tx, { card, deleted: false, unsynced: false });
        const seen = `sender${i}@mail${i % 50}.test`;
        tx.queuePut('Contact', { id: seen, email: seen, name: `${LAST[i % LAST.length]} Sender ${i}`, is_personal_contact: 0, mailComposeRank: (i % 13) / 3, mailSearchRank: 0, last_seen_at: i });
      }
    });
  }
  const prefixes = ['a', 'k', 'm', 'se', 'li', 'f', 'b', 'n', 'o', 'p', 'c', 'd', 'e', 'g', 'h', 'i', 'j', 'l'];
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const needle = prefixes[run % prefixes.length]!;
    const started = performance.now();
    const rows = await withRead(store, ['Contact'], (tx) => tx.getAll('Contact'));
    const seen = new Map<string, SuggestionCandidate>();
    suggestionCandidates(rows, needle, seen);
    const found = orderSuggestions(seen.values(), 8);
    samples.push(performance.now() - started);
    if (found.length === 0) throw new Error(`no suggestion for "${needle}"`);
  }
  return samples;
}

export const contacts: Scenario = {
  id: 'contacts',
  title: 'Address book: import of 10,000 contacts, autocomplete with 20,000 (issue 18)',
  estimateSec: 60,
  figures: [IMPORT, SUGGEST],
  async run(ctx) {
    const login = DATASETS.push;
    const importRuns = ctx.quick ? 1 : 3;
    const imports = await repeat(ctx, 'import 10k', importRuns, async (run) => {
      // A fresh gateway each run: an empty book, so every run writes 10,000 new cards.
      const gateway = await GatewayProcess.start({ env: ctx.env, label: `contacts-${run}` });
      try {
        const { token } = await gateway.login(login.email, login.password);
        return await importOnce(gateway, token, googleCsv(10_000, run));
      } finally {
        await gateway.stop();
      }
    });
    ctx.record(IMPORT, { '1': imports }, 'A 10,000-row Google CSV (1.1 MB, one row in five with two addresses) into an empty book; the gateway child on SQLite, its job writing batches of 500; the status polled every 25 ms.');
    ctx.progress('autocomplete over 20,000 cards…');
    const suggest = await suggestSamples(ctx.quick ? 10 : 40);
    ctx.record(SUGGEST, { '1': suggest }, 'MailQueryService.suggestAddresses\'s steps for one account (getAll of the Contact table, match, rank) over 20,000 cards and 20,000 addresses seen, in Node over fake-indexeddb (not Chromium\'s IndexedDB). A different prefix each run.');
  },
};

// Command line for the Maildir seeder; prints the SeedSummary as JSON.
//
//   npx tsx test/harness/seed/cli.ts --maildir DIR --count N [--seed S]
//       --owner-email E --owner-name NAME [--now ISO] [--other "Name <email>"]...
//       [--single-folder INBOX]   (every message in that folder: a single big INBOX)

import { parseArgs } from 'node:util';
import { SEED_FOLDERS, seedMailbox, type SeedOwner } from './seed-mailbox';

function fail(msg: string): never {
  process.stderr.write(msg + '\n');
  process.exit(2);
}

function parseOther(s: string): SeedOwner {
  const lt = s.lastIndexOf('<');
  if (lt < 0 || !s.endsWith('>')) return { name: s.slice(0, s.indexOf('@')), email: s };
  return { name: s.slice(0, lt).trim(), email: s.slice(lt + 1, -1) };
}

const { values } = parseArgs({
  options: {
    maildir: { type: 'string' },
    count: { type: 'string' },
    seed: { type: 'string' },
    now: { type: 'string' },
    'owner-email': { type: 'string' },
    'owner-name': { type: 'string' },
    other: { type: 'string', multiple: true },
    'single-folder': { type: 'string' },
  },
});

if (!values.maildir) fail('--maildir DIR is required');
if (!values['owner-email']) fail('--owner-email is required');
const count = Number(values.count);
if (!Number.isInteger(count) || count < 0) fail('--count must be a non-negative integer');
const seed = values.seed === undefined ? 1 : Number(values.seed);
if (!Number.isInteger(seed)) fail('--seed must be an integer');
const now = values.now ? new Date(values.now) : undefined;
if (now && Number.isNaN(now.getTime())) fail('--now must be an ISO date');
const email = values['owner-email'];
const singleFolder = values['single-folder'];
if (singleFolder !== undefined && !(SEED_FOLDERS as readonly string[]).includes(singleFolder)) fail(`--single-folder must be one of ${SEED_FOLDERS.join(', ')}`);

const summary = seedMailbox({
  maildir: values.maildir,
  owner: { name: values['owner-name'] ?? email.slice(0, email.indexOf('@')), email },
  count,
  seed,
  now,
  otherAccounts: (values.other ?? []).map(parseOther),
  ...(singleFolder ? { singleFolder: singleFolder as (typeof SEED_FOLDERS)[number] } : {}),
});
process.stdout.write(JSON.stringify(summary) + '\n');

// npm run crash-test [-- --sends=60 --drafts=60 --keep --gateway=<dir with dist/server/gateway.mjs>]
//
// Kills the built gateway with SIGKILL at random moments while it sends mail and saves drafts,
// against the harness's real Postfix and Dovecot, then starts it again on the same data dir and
// plays the client (the engine's outbox): it repeats the interrupted request with the same
// idempotency key / client id until it has an answer. Then it counts, over IMAP:
//
// - sends: each message's copies in bob's INBOX by Message-ID (0 = lost unless the person was
//   told, 2+ = duplicated) and the state the person sees (`unknown` = "may have been sent",
//   shown; `failed` = shown as failed);
// - drafts: each draft's copies in alice's Drafts by its marker, after the restart's recovery
//   (before the client's retry) and after the retry (exactly one, holding the last save).
//
// Kill points: random moments of the request (scaled to a measured normal duration), and on
// purpose around SMTP's final "." through the fault proxy: with the server's 250 held back
// ("after the dot"), and racing a slow 250 against the kill; for drafts, with Dovecot's APPEND
// OK held back. A tool, not part of `npm test`: about 5 minutes.
import { mkdir, mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ImapFlow } from 'imapflow';
import { startMailServers, type MailUser } from '../harness/mail-servers';
import { findFreePorts } from '../harness/ports';
import { startFaultProxy } from './fault-proxy';
import { GatewayProcess } from './gateway-process';

const ALICE: MailUser = { email: 'alice@tern.test', password: 'Alice-crash-1!' };
const BOB: MailUser = { email: 'bob@kite.test', password: 'Bob-crash-2!' };
const root = path.resolve(import.meta.dirname, '..', '..');
/** Another build to measure (e.g. a checkout of an older commit); default this one. */
const gatewayRoot = path.resolve(process.argv.find((a) => a.startsWith('--gateway='))?.split('=')[1] ?? root);

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const SENDS = arg('sends', 60);
const DRAFTS = arg('drafts', 60);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rand = (max: number) => Math.floor(Math.random() * max);
const pick = <T>(list: readonly T[]): T => list[rand(list.length)]!;

interface Reply { status: number; body: Record<string, unknown> }

async function main() {
  const work = await mkdtemp(path.join(os.tmpdir(), 'tern-crash-'));
  await chmod(work, 0o711);
  console.log(`Crash test in ${work}: ${SENDS} send cycles, ${DRAFTS} draft cycles`);
  const servers = await startMailServers({ dataDir: path.join(work, 'mail'), users: [ALICE, BOB], fresh: true });
  const smtpProxy = await startFaultProxy({ host: servers.host, port: servers.ports.smtp });
  const imapProxy = await startFaultProxy({ host: servers.host, port: servers.ports.imap });
  const [port] = await findFreePorts(1);
  const dataDir = path.join(work, 'gateway');
  const publicDir = path.join(work, 'public');
  await mkdir(path.join(publicDir, 'build'), { recursive: true });
  await writeFile(path.join(publicDir, 'build', 'index.html'), '<!doctype html><title>Tern</title>');
  const via = (p: number) => ({ host: servers.host, port: p, security: 'none' });
  const domains = { imap: via(imapProxy.port), smtp: via(smtpProxy.port) };
  const gateway = new GatewayProcess(gatewayRoot, {
    TERN_PORT: String(port),
    TERN_DATA_DIR: dataDir,
    TERN_PUBLIC_DIR: publicDir,
    TERN_LOG_LEVEL: 'warn',
    TERN_MAIL_DOMAINS: JSON.stringify({ 'tern.test': domains, 'kite.test': domains }),
  }, port!, path.join(work, 'gateway.log'));
  const imap = async (user: MailUser) => {
    const client = new ImapFlow({ host: servers.host, port: servers.ports.imap, secure: false, auth: { user: user.email, pass: user.password }, logger: false });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };

  try {
    await gateway.start();
    const login = async (user: MailUser) => {
      const response = await fetch(`${gateway.url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
      if (!response.ok) throw new Error(`login ${user.email}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { token: string }).token;
    };
    const token = await login(ALICE);
    await login(BOB);
    const api = async (method: string, url: string, body?: unknown): Promise<Reply> => {
      const response = await fetch(`${gateway.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    };
    /** The same request until the gateway answers it (it may be down, or starting). */
    const persist = async (method: string, url: string, body?: unknown): Promise<Reply> => {
      for (let tries = 0; ; tries++) {
        try {
          const reply = await api(method, url, body);
          if (reply.status < 500 || tries > 20) return reply;
        } catch (error) {
          if (tries > 20) throw error;
        }
        if (!gateway.running) await gateway.start();
        await sleep(250);
      }
    };
    // The counting clients reconnect when a long run outlives their connection.
    const clients = new Map<MailUser, ImapFlow>();
    const client = async (user: MailUser) => {
      const open = clients.get(user);
      if (open?.usable) return open;
      const fresh = await imap(user);
      clients.set(user, fresh);
      return fresh;
    };
    const stateDb = () => new Database(path.join(dataDir, 'tern.sqlite'), { readonly: true, fileMustExist: true });

    // ---- sends ----
    const sendBody = (i: number, marker: string) => ({
      idempotencyKey: `crash-send-${marker}`,
      compose: { to: [BOB.email], subject: `Crash send ${i} ${marker}`, text: `${marker}\n${'Lorem ipsum dolor sit amet. '.repeat(rand(8000))}` },
    });
    const normal: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await api('POST', '/api/send', sendBody(-1, `warm${i}${rand(1e9)}`));
      normal.push(performance.now() - started);
    }
    const sendMs = Math.max(...normal);
    console.log(`A normal send takes ~${Math.round(sendMs)} ms; kills fall in 0–${Math.round(sendMs * 1.3)} ms, or around the final "."`);

    type SendMode = 'random' | 'after-dot' | 'slow-250';
    const sends: { mode: SendMode; marker: string; messageIdHeader: string; state: string; sentCopy: unknown }[] = [];
    for (let i = 0; i < SENDS; i++) {
      const mode: SendMode = i % 5 < 3 ? 'random' : i % 5 === 3 ? 'after-dot' : 'slow-250';
      const marker = `cs${i}x${rand(1e9)}`;
      const body = sendBody(i, marker);
      const dot = mode === 'random' ? null : smtpProxy.arm('smtp-hold-after-dot');
      const request = api('POST', '/api/send', body).catch(() => null);
      if (mode === 'random') {
        await sleep(rand(sendMs * 1.3));
        await gateway.kill9();
      } else {
        const fired = await Promise.race([dot!.then(() => true), request.then(() => false)]);
        if (fired && mode === 'after-dot') {
          await sleep(rand(10));
          await gateway.kill9();
          smtpProxy.release('drop');
        } else if (fired) {
          // A slow 250 racing the kill: either may come first.
          await Promise.all([sleep(rand(30)).then(() => smtpProxy.release('deliver')), sleep(rand(30)).then(() => gateway.kill9())]);
        } else {
          await gateway.kill9();
        }
        smtpProxy.disarm();
      }
      await request;
      await gateway.start();
      // The client repeats its request (same key) until it has an outcome, as the engine's outbox does.
      let reply = await persist('POST', '/api/send', body);
      for (let polls = 0; reply.status === 202 && polls < 600; polls++) {
        await sleep(100);
        reply = await persist('GET', `/api/outbox/${String(reply.body.outboxId)}`);
        if (['sent', 'failed', 'unknown'].includes(String(reply.body.state))) break;
      }
      const state = reply.status === 400 ? 'failed' : String(reply.body.state);
      sends.push({ mode, marker, messageIdHeader: String(reply.body.messageIdHeader ?? ''), state, sentCopy: reply.body.sentCopy });
      process.stdout.write(state === 'sent' ? '.' : state === 'unknown' ? '?' : '!');
    }
    console.log();

    // ---- drafts ----
    type DraftMode = 'create-random' | 'create-after-append' | 'update-random' | 'update-after-append';
    const draftFields = (marker: string, v: number) => ({ to: [BOB.email], subject: `Crash draft ${marker} v${v}`, text: `${marker} version ${v}\n${'Draft text. '.repeat(rand(3000))}`, attachmentIds: [] });
    const saveTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await api('POST', '/api/drafts', { version: 0, clientId: `local-warm${i}${rand(1e9)}`, ...draftFields(`warm${i}`, 1) });
      saveTimes.push(performance.now() - started);
    }
    const saveMs = Math.max(...saveTimes);
    console.log(`A normal draft save takes ~${Math.round(saveMs)} ms`);
    const drafts: { mode: DraftMode; marker: string; afterRecovery: number; afterRetry: string[]; expected: string }[] = [];
    for (let i = 0; i < DRAFTS; i++) {
      const mode: DraftMode = (['create-random', 'create-after-append', 'update-random', 'update-after-append'] as const)[i % 4]!;
      const marker = `cd${i}x${rand(1e9)}`;
      const clientId = `local-${marker}`;
      let serverId: string | null = null;
      let version = 0;
      if (mode.startsWith('update')) {
        const created = await persist('POST', '/api/drafts', { version: 0, clientId, ...draftFields(marker, 1) });
        serverId = String(created.body.id);
        version = Number(created.body.version);
      }
      const v = version + 1;
      const hold = mode.endsWith('after-append') ? imapProxy.arm('imap-hold-after-append') : null;
      const request = (serverId === null
        ? api('POST', '/api/drafts', { version: 0, clientId, ...draftFields(marker, v) })
        : api('PUT', `/api/drafts/${serverId}`, { version, ...draftFields(marker, v) })
      ).catch(() => null);
      if (hold) await Promise.race([hold, request]);
      else await sleep(rand(saveMs * 1.3));
      await gateway.kill9();
      imapProxy.release('drop');
      imapProxy.disarm();
      const answered = await request;
      await gateway.start();
      // The restart's recovery: no save of any draft is left under way.
      for (let polls = 0; polls < 300; polls++) {
        const db = stateDb();
        let open = 0;
        try {
          open = (db.prepare('SELECT COUNT(*) AS n FROM drafts WHERE saving_since IS NOT NULL').get() as { n: number }).n;
        } catch {
          // a build without save markers (measuring an older gateway): nothing to wait for
        } finally {
          db.close();
        }
        if (open === 0) break;
        await sleep(100);
      }
      const afterRecovery = (await subjectsIn(await client(ALICE), 'Drafts', marker)).length;
      // The client saves again what it did not hear back about (as the engine's outbox does).
      if (answered && answered.status < 300) {
        serverId = String(answered.body.id);
        version = Number(answered.body.version);
      } else {
        if (serverId === null) {
          const created = await persist('POST', '/api/drafts', { version: 0, clientId, ...draftFields(marker, v) });
          const earlier = created.body.error === 'DraftAlreadyCreated' ? (created.body.detail as { id: string; version: number }) : null;
          if (earlier) [serverId, version] = [earlier.id, earlier.version];
          else [serverId, version] = [String(created.body.id), -1];
        }
        if (version !== -1) {
          let saved = await persist('PUT', `/api/drafts/${serverId}`, { version, ...draftFields(marker, v) });
          if (saved.body.error === 'InvalidDraftVersion') {
            const current = (saved.body.detail as { currentVersion: number }).currentVersion;
            saved = await persist('PUT', `/api/drafts/${serverId}`, { version: current, ...draftFields(marker, v) });
          }
          if (saved.status >= 300) console.warn(`\ndraft ${marker}: the retried save answered ${saved.status} ${JSON.stringify(saved.body)}`);
        }
      }
      drafts.push({ mode, marker, afterRecovery, afterRetry: await subjectsIn(await client(ALICE), 'Drafts', marker), expected: `Crash draft ${marker} v${v}` });
      process.stdout.write('.');
    }
    console.log();

    // ---- count deliveries once Postfix has delivered everything ----
    let previous = -1;
    let counts: number[] = [];
    for (let rounds = 0; rounds < 30; rounds++) {
      await sleep(2000);
      counts = [];
      for (const send of sends) counts.push(send.messageIdHeader ? (await uidsBy(await client(BOB), 'INBOX', send.messageIdHeader)).length : 0);
      const total = counts.reduce((a, b) => a + b, 0);
      if (total === previous) break;
      previous = total;
    }
    const sentCopies: number[] = [];
    for (const send of sends) sentCopies.push(send.messageIdHeader ? (await uidsBy(await client(ALICE), 'Sent', send.messageIdHeader)).length : 0);

    // ---- the table ----
    const rows: string[][] = [['', 'cycles', 'ok', 'lost', 'duplicated', 'ambiguous-and-shown', 'failed-and-shown']];
    const sendRow = (label: string, filter: (mode: SendMode) => boolean) => {
      const picked = sends.map((send, index) => ({ ...send, delivered: counts[index]!, sentCopies: sentCopies[index]! })).filter((send) => filter(send.mode));
      const shown = picked.filter((send) => send.state === 'unknown');
      rows.push([
        label,
        String(picked.length),
        String(picked.filter((send) => send.state === 'sent' && send.delivered === 1).length),
        String(picked.filter((send) => send.delivered === 0 && send.state !== 'unknown' && send.state !== 'failed').length),
        String(picked.filter((send) => send.delivered >= 2).length),
        `${shown.length} (${shown.filter((send) => send.delivered === 1).length} had arrived)`,
        String(picked.filter((send) => send.state === 'failed').length),
      ]);
      return picked;
    };
    const all = sendRow('sends, all', () => true);
    sendRow('  killed at random', (mode) => mode === 'random');
    sendRow('  killed after "." (250 held)', (mode) => mode === 'after-dot');
    sendRow('  slow 250 racing the kill', (mode) => mode === 'slow-250');
    const draftRow = (label: string, filter: (mode: DraftMode) => boolean) => {
      const picked = drafts.filter((draft) => filter(draft.mode));
      rows.push([
        label,
        String(picked.length),
        String(picked.filter((draft) => draft.afterRetry.length === 1 && draft.afterRetry[0] === draft.expected).length),
        String(picked.filter((draft) => draft.afterRetry.length === 0 || (draft.afterRetry.length === 1 && draft.afterRetry[0] !== draft.expected)).length),
        String(picked.filter((draft) => draft.afterRetry.length >= 2).length),
        '–',
        '–',
      ]);
    };
    draftRow('draft saves, all', () => true);
    draftRow('  create killed at random', (mode) => mode === 'create-random');
    draftRow('  create killed after APPEND', (mode) => mode === 'create-after-append');
    draftRow('  update killed at random', (mode) => mode === 'update-random');
    draftRow('  update killed after APPEND', (mode) => mode === 'update-after-append');
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    console.log();
    for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
    const recovered = drafts.map((draft) => draft.afterRecovery);
    console.log(`\nDrafts right after the restart's recovery, before the client's retry: ${recovered.filter((n) => n === 0).length} with no copy (never reached the server or the record), ${recovered.filter((n) => n === 1).length} with one, ${recovered.filter((n) => n >= 2).length} with two or more.`);
    const sent = all.filter((send) => send.state === 'sent');
    console.log(`Sent folder for the ${sent.length} sent messages: ${sent.filter((send) => send.sentCopies === 1).length} with one copy, ${sent.filter((send) => send.sentCopies === 0).length} without, ${sent.filter((send) => send.sentCopies > 1).length} with more; sentCopy 'failed' shown for ${sent.filter((send) => send.sentCopy === 'failed').length}.`);
    const bad = all.filter((send) => send.delivered >= 2 || (send.delivered === 0 && send.state !== 'unknown' && send.state !== 'failed'));
    for (const send of bad) console.log(`  send ${send.marker} (${send.mode}): state ${send.state}, delivered ${send.delivered}`);
    // Neither sent, unknown nor failed when the client stopped waiting (60 s): still on its way.
    for (const send of all.filter((s) => !['sent', 'unknown', 'failed'].includes(s.state))) {
      console.log(`  send ${send.marker} (${send.mode}): still ${send.state} after 60 s of polling, delivered ${send.delivered}, Sent copies ${send.sentCopies}`);
    }
    for (const draft of drafts.filter((d) => d.afterRetry.length !== 1 || d.afterRetry[0] !== d.expected)) console.log(`  draft ${draft.marker} (${draft.mode}): ${JSON.stringify(draft.afterRetry)}`);
    for (const open of clients.values()) await open.logout().catch(() => undefined);
  } finally {
    await gateway.close();
    await smtpProxy.close();
    await imapProxy.close();
    await servers.stop();
    if (!process.argv.includes('--keep')) await rm(work, { recursive: true, force: true });
  }
}

async function uidsBy(client: ImapFlow, folder: string, messageIdHeader: string): Promise<number[]> {
  await client.mailboxOpen(folder);
  const found = await client.search({ header: { 'message-id': messageIdHeader } }, { uid: true });
  return Array.isArray(found) ? found : [];
}

async function subjectsIn(client: ImapFlow, folder: string, marker: string): Promise<string[]> {
  await client.mailboxOpen(folder);
  const found = await client.search({ subject: marker }, { uid: true });
  const subjects: string[] = [];
  for (const uid of Array.isArray(found) ? found : []) {
    const message = await client.fetchOne(String(uid), { envelope: true }, { uid: true });
    if (message && message.envelope?.subject) subjects.push(message.envelope.subject);
  }
  return subjects;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

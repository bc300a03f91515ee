/** An engine with one account ('7') on a fake gateway, its first sync done, and every command status it publishes. */
import type { CommandStatus, DraftInput } from '../../../../shared/worker-mail-api';
import { FakeMailServer } from '../fake-mail-server';
import { manualClock, Profile, waitFor } from '../mail-test-kit';

export async function startedEngine(engines: { close(): void }[]) {
  const server = new FakeMailServer();
  server.standardFolders();
  const profile = new Profile([server]);
  await profile.addAccounts();
  const clock = manualClock(Date.now());
  const engine = await profile.engine({ clock });
  engines.push(engine);
  const runtime = await waitFor(() => engine.runtime('7'), 'the runtime');
  await waitFor(() => runtime.sync.state.phase === 'idle', 'the first sync');
  const statuses: CommandStatus[] = [];
  await engine.commands.watchCommands((status) => statuses.push(status));
  return { server, engine, statuses, clock };
}

/** A draft of account '7' to Bob, subject "Plans". */
export const draftTo = (html: string, extra: Partial<DraftInput> = {}): DraftInput => ({
  accountId: '7',
  to: [{ name: 'Bob', email: 'bob@kite.test' }],
  cc: [],
  bcc: [],
  subject: 'Plans',
  html,
  attachmentIds: [],
  ...extra,
});

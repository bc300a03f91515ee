/**
 * The open conversation: the engine's live thread (MailQueryService.watchThread), held in
 * openThreadAtom. One thread is watched at a time; opening another ends the watch of the
 * one before. The engine pushes the thread again when its messages, flags or membership
 * change, so the reading pane never asks for it again itself.
 */
import { TernError } from '../../../shared/errors';
import type { ThreadPush } from '../../../shared/worker-mail-api';
import { openThreadAtom } from '../atoms';
import type { FeedContext } from './feed-context';

/** A thread to open: its row key and where it lives. */
export interface ThreadToOpen {
  readonly key: string;
  readonly accountId: string;
  readonly threadId: string;
}

export interface OpenThreadFeed {
  /** Watches this thread (the one before ends); null ends the watch and empties the atom. */
  openThread(thread: ThreadToOpen | null): void;
  /** Ends the watch (the bridge stops). */
  stop(): void;
}

export function createOpenThreadFeed(context: FeedContext): OpenThreadFeed {
  const { engine, store, isStopped } = context;
  /** Each opening's number: answers and pushes of an earlier one are dropped. */
  let opening = 0;
  let subscriptionId: string | null = null;
  let openKey: string | null = null;

  const unwatch = (id: string) => void engine.mail.unwatch({ subscriptionId: id }).catch(() => undefined);
  const endWatch = () => {
    if (subscriptionId) unwatch(subscriptionId);
    subscriptionId = null;
  };

  function openThread(thread: ThreadToOpen | null) {
    if (thread?.key === openKey && thread !== null) return; // already watched
    const mine = ++opening;
    endWatch();
    openKey = thread?.key ?? null;
    if (!thread) {
      store.set(openThreadAtom, null);
      return;
    }
    const { key, accountId, threadId } = thread;
    store.set(openThreadAtom, { key, thread: null, error: null, gone: false });
    /** A push that came before the snapshot is newer than it. */
    let pushed = false;
    const onPush = (push: ThreadPush) => {
      if (mine !== opening || isStopped()) return;
      pushed = true;
      const shown = store.get(openThreadAtom);
      if (push.kind === 'gone') store.set(openThreadAtom, { key, thread: shown?.key === key ? shown.thread : null, error: null, gone: true });
      else store.set(openThreadAtom, { key, thread: push.thread, error: null, gone: false });
    };
    engine.mail.watchThread({ accountId, threadId }, onPush).then(
      (snapshot) => {
        if (mine !== opening || isStopped()) {
          if (snapshot.subscriptionId) unwatch(snapshot.subscriptionId);
          return;
        }
        subscriptionId = snapshot.subscriptionId;
        if (!pushed) store.set(openThreadAtom, { key, thread: snapshot.thread, error: null, gone: false });
      },
      (error: unknown) => {
        if (mine !== opening || isStopped()) return;
        openKey = null; // opening it again asks again
        store.set(openThreadAtom, { key, thread: null, error: TernError.from(error), gone: false });
      },
    );
  }

  return {
    openThread,
    stop() {
      opening++;
      endWatch();
      openKey = null;
    },
  };
}

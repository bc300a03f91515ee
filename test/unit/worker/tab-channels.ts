/**
 * The real comlink boundary, in-process over a MessageChannel (STYLE.md item 16): each
 * `connectTab` is one tab's remote of the engine; the channels close after each test.
 */
import { expose, wrap, type Remote } from 'comlink';
import { afterEach } from 'vitest';
import type { WorkerApi } from '../../../shared/worker-api';

export function tabChannels(): (api: WorkerApi) => Remote<WorkerApi> {
  const channels: MessageChannel[] = [];
  afterEach(() => {
    for (const channel of channels.splice(0)) {
      channel.port1.close();
      channel.port2.close();
    }
  });
  return (api) => {
    const channel = new MessageChannel();
    channels.push(channel);
    expose(api, channel.port1);
    return wrap<WorkerApi>(channel.port2);
  };
}

// The cluster's load balancer: HAProxy from Debian's package (installed like Dovecot when
// missing), in front of the gateway nodes on loopback. HTTP mode, round robin, a health check
// on /api/health so a killed node leaves the rotation within about two seconds, and
// websocket upgrades passed through (the push socket lives as long as the tab: `timeout tunnel`).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDebianPackages } from './system-packages';

export const HAPROXY_BINARY = '/usr/sbin/haproxy';

export interface BalancerNode {
  readonly name: string;
  readonly port: number;
}

/** haproxy.cfg for `port` in front of `nodes` (all on 127.0.0.1). */
export function haproxyConfig(port: number, nodes: readonly BalancerNode[]): string {
  for (const node of nodes) {
    if (!/^[a-z0-9-]+$/.test(node.name)) throw new Error(`Not a plain node name: ${node.name}`);
  }
  return `global
  maxconn 4096

defaults
  mode http
  option http-server-close
  option forwardfor
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # A websocket (the push socket) is a tunnel once upgraded: it lives as long as the tab.
  timeout tunnel 1h
  # A node that went away between the health checks: the request goes to another one.
  retries 2
  option redispatch

frontend tern
  bind 127.0.0.1:${port}
  default_backend gateways

backend gateways
  balance roundrobin
  option httpchk GET /api/health
  http-check expect status 200
${nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.port} check inter 1s fall 2 rise 1`).join('\n')}
`;
}

export interface Balancer {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts HAProxy in the foreground (it stops with this process), its config in `dir`. */
export async function startHaproxy(options: { readonly dir: string; readonly port: number; readonly nodes: readonly BalancerNode[]; readonly log?: (line: string) => void }): Promise<Balancer> {
  const log = options.log ?? (() => undefined);
  await ensureDebianPackages([{ name: 'haproxy', binary: HAPROXY_BINARY }], log);
  await mkdir(options.dir, { recursive: true });
  const configFile = join(options.dir, 'haproxy.cfg');
  await writeFile(configFile, haproxyConfig(options.port, options.nodes));
  const child = spawn(HAPROXY_BINARY, ['-f', configFile, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      output.push(line);
      log(line);
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${options.port}`;
  await waitForListening(url, () => child.exitCode !== null, () => output.slice(-10).join('\n'));
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Waits until the balancer answers at all (any HTTP status: the nodes may still be starting). */
async function waitForListening(url: string, exited: () => boolean, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error(`HAProxy exited during start-up:\n${output()}`);
    const answered = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`HAProxy did not listen at ${url} within 15 s:\n${output()}`);
}

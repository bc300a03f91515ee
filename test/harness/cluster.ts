// The scale-out path of DESIGN §7 on one machine, from Debian's packages: a private
// PostgreSQL and Redis, N gateway nodes on them, and HAProxy in front, all on loopback.
// Used by `npm run demo -- --cluster` and the cluster tests.
//
// The nodes share one data dir, as nodes behind a balancer share a volume: the secret key
// (every node must open the stored passwords), uploads and the spool are files. The
// database is PostgreSQL (TERN_DATABASE_URL), so the SQLite file there is never opened.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnGateway, waitForHealth, type GatewayProcess } from './gateway-process';
import { startHaproxy, type Balancer } from './haproxy';
import { findFreePorts } from './ports';
import { startPostgres, type PostgresServer } from './postgres-server';
import { startRedis, type RedisServer } from './redis-server';

export interface ClusterNode {
  readonly name: string;
  readonly port: number;
  readonly gateway: GatewayProcess;
}

export interface Cluster {
  /** The balancer's URL: the one address people use. */
  readonly url: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  /** The environment every node gets (besides its port): for a tool that opens the same store. */
  readonly env: NodeJS.ProcessEnv;
  nodes(): readonly ClusterNode[];
  /** kill -9 of one node, as a crash: no shutdown, no lease given back. */
  kill(name: string): Promise<void>;
  /** Starts a stopped or killed node again on its port. */
  restart(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Where PostgreSQL, Redis, HAProxy and the shared data dir live. */
  readonly dir: string;
  /** The balancer's port (the URL people open). */
  readonly port: number;
  readonly nodeCount: number;
  /** Environment for every node (TERN_MAIL_DOMAINS …). */
  readonly env: NodeJS.ProcessEnv;
  /** Runs before the nodes start, with the environment they will get (e.g. registering demo people). */
  readonly prepare?: (env: NodeJS.ProcessEnv) => Promise<void>;
  readonly log?: (line: string) => void;
  /** The built gateway the nodes run (default dist/server/gateway.mjs). */
  readonly gatewayBundle?: string;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? (() => undefined);
  const started: { postgres?: PostgresServer; redis?: RedisServer; balancer?: Balancer; nodes: ClusterNode[] } = { nodes: [] };
  const stop = async () => {
    await started.balancer?.stop();
    await Promise.all(started.nodes.map((node) => stopNode(node.gateway)));
    await started.redis?.close();
    await started.postgres?.stop();
  };
  try {
    log('Starting PostgreSQL and Redis…');
    started.postgres = await startPostgres({ dir: join(options.dir, 'postgres'), log });
    started.redis = await startRedis({ dir: join(options.dir, 'redis'), log });
    const databaseUrl = await started.postgres.createDatabase('tern');
    const dataDir = join(options.dir, 'gateway');
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const env: NodeJS.ProcessEnv = {
      ...options.env,
      TERN_DATA_DIR: dataDir,
      TERN_DATABASE_URL: databaseUrl,
      TERN_REDIS_URL: started.redis.url,
      // Every request comes through HAProxy on loopback: its X-Forwarded-For names the client
      // (the per-address login limit counts people, not the balancer).
      TERN_TRUST_PROXY: 'loopback',
    };
    await options.prepare?.(env);
    const ports = await findFreePorts(options.nodeCount);
    const startNode = async (name: string, port: number) => {
      const gateway = spawnGateway({ port, env, logFile: join(options.dir, `${name}.log`), bundle: options.gatewayBundle });
      await waitForHealth(gateway);
      return { name, port, gateway };
    };
    log(`Starting ${options.nodeCount} gateway nodes…`);
    // One after another: the first migrates the database, the others find it current.
    for (const [index, port] of ports.entries()) started.nodes.push(await startNode(`node${index + 1}`, port));
    started.balancer = await startHaproxy({ dir: join(options.dir, 'haproxy'), port: options.port, nodes: started.nodes, log });
    const nodeNamed = (name: string) => {
      const node = started.nodes.find((candidate) => candidate.name === name);
      if (!node) throw new Error(`No cluster node named ${name}`);
      return node;
    };
    return {
      url: started.balancer.url,
      databaseUrl,
      redisUrl: started.redis.url,
      env,
      nodes: () => [...started.nodes],
      async kill(name) {
        const node = nodeNamed(name);
        node.gateway.child.kill('SIGKILL');
        await node.gateway.exited;
      },
      async restart(name) {
        const node = nodeNamed(name);
        await stopNode(node.gateway);
        const again = await startNode(name, node.port);
        started.nodes[started.nodes.indexOf(node)] = again;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function stopNode(gateway: GatewayProcess): Promise<void> {
  if (gateway.child.exitCode !== null || gateway.child.signalCode !== null) return;
  gateway.child.kill('SIGTERM');
  await gateway.exited;
}

import { BenchEnv } from '../lib/bench-env';
import { GatewayProcess } from '../lib/gateway-process';
import { coldSync } from '../lib/cold-sync';
import { summarizeProfile } from '../lib/cpu-profile';
import { readdirSync, mkdirSync } from 'node:fs';
const env = await BenchEnv.create(console.log);
const dir = '/tmp/bench-prof'; mkdirSync(dir, { recursive: true });
try {
  const ds = await env.dataset('10k');
  for (let i = 0; i < 3; i++) {
    const gw = await GatewayProcess.start({ env, label: 'probe' + i, cpuProfDir: dir });
    const t = await coldSync({ gateway: gw, dataset: ds });
    await gw.stop();
    const f = readdirSync(dir).find((n) => n.startsWith('probe' + i))!;
    const s = summarizeProfile(dir + '/' + f);
    console.log(i, Math.round(t.first50Ms), Math.round(t.mirroredMs), 'sampled', Math.round(s.totalMs), 'busy', Math.round(s.busyMs));
  }
} finally { await env.close(); }

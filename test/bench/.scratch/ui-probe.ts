import { BenchEnv } from '../lib/bench-env';
import { GatewayProcess } from '../lib/gateway-process';
import { closeBrowser, newThrottledPage } from '../lib/browser';
import { installProbes, readProbe, countStoredMessages, ROW_SELECTOR } from '../lib/page-probes';
const env = await BenchEnv.create(console.log);
try {
  const ds = await env.dataset('10k');
  for (const rate of [1, 4] as const) {
  const gw = await GatewayProcess.start({ env, label: 'ui' });
  const tp = await newThrottledPage(rate);
  await installProbes(tp.page);
  await tp.page.goto(gw.baseUrl);
  await tp.page.getByLabel('Email address').fill(ds.email, { timeout: 10000 });
  await tp.page.getByRole('button', { name: 'Next' }).click();
  await tp.page.getByLabel('Password', { exact: true }).fill(ds.password);
  const t0 = performance.now();
  await tp.page.getByRole('button', { name: 'Sign in' }).click();
  let n = 0;
  while (performance.now() - t0 < 60000) {
    const c = await countStoredMessages(tp.page);
    if (c !== n) { console.log(rate, 'idb', Math.round(performance.now() - t0), c); n = c; }
    if (c >= 10000) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const p = await readProbe(tp.page);
  console.log(JSON.stringify(p));
  console.log(tp.console.slice(0, 20).join('\n'));
  await tp.close(); await gw.stop();
  }
} finally { await closeBrowser(); await env.close(); }

import { BenchEnv } from '../lib/bench-env';
import { GatewayProcess } from '../lib/gateway-process';
import { closeBrowser, newThrottledPage } from '../lib/browser';
const env = await BenchEnv.create(console.log);
try {
  const ds = await env.dataset('push');
  const gw = await GatewayProcess.start({ env, label: 'ui' });
  const tp = await newThrottledPage(1);
  const t0 = performance.now();
  await tp.page.goto(gw.baseUrl);
  await tp.page.getByLabel('Email address').fill(ds.email, { timeout: 10000 });
  await tp.page.getByRole('button', { name: 'Next' }).click();
  await tp.page.getByLabel('Password', { exact: true }).fill(ds.password);
  await tp.page.getByRole('button', { name: 'Sign in' }).click();
  try {
    await tp.page.locator('#thread-list[role="listbox"] [role="option"]').first().waitFor({ timeout: 20000 });
    console.log('rows after', performance.now() - t0, await tp.page.locator('#thread-list [role="option"]').count());
  } catch (e) { console.log('no rows', String(e).slice(0, 300)); }
  await tp.page.waitForTimeout(15000);
  console.log('after 15s', await tp.page.locator('#thread-list [role="option"]:not([aria-disabled="true"])').count(), await tp.page.locator('#thread-list [role="option"]').count());
  await tp.page.screenshot({ path: '/work/main/test/bench/.scratch/ui.png' });
  console.log(tp.console.join('\n'));
  console.log(gw.output());
  await tp.close();
} finally { await closeBrowser(); await env.close(); }

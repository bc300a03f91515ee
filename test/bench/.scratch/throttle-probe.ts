import { BenchEnv } from '../lib/bench-env';
import { GatewayProcess } from '../lib/gateway-process';
import { browser, closeBrowser, newThrottledPage } from '../lib/browser';
const env = await BenchEnv.create(console.log);
try {
  const gw = await GatewayProcess.start({ env, label: 'ui' });
  const b = await browser();
  for (const rate of [1, 4] as const) {
    const tp = await newThrottledPage(rate);
    await tp.page.goto(gw.baseUrl);
    await tp.page.waitForTimeout(1500);
    const pageMs = []; for (let k=0;k<5;k++) pageMs.push(await tp.page.evaluate(`(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 3e7; i++) x += i % 7; return performance.now() - t; })()`));
    const cdp = await b.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets') as { targetInfos: { targetId: string; type: string; url: string }[] };
    console.log(targetInfos.map((t) => t.type + ' ' + t.url).join('\n'));
    const sw = targetInfos.find((t) => t.type === 'shared_worker');
    if (sw) {
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: sw.targetId, flatten: false }) as { sessionId: string };
      const replies = new Map<number, (v: unknown) => void>();
      cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => { const m = JSON.parse(e.message); replies.get(m.id)?.(m); });
      const call = (id: number, method: string, params: object) => new Promise((resolve) => { replies.set(id, resolve); void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }); });
      const ws: unknown[] = []; for (let k = 0; k < 5; k++) ws.push(((await call(10 + k, 'Runtime.evaluate', { expression: '(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 3e7; i++) x += i % 7; return performance.now() - t; })()', returnByValue: true })) as any).result.result.value);
      console.log('rate', rate, 'page', pageMs.map(Math.round), 'worker', ws.map((v) => Math.round(v as number)));
      const r = await call(1, 'Runtime.evaluate', { expression: '(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 3e7; i++) x += i % 7; return performance.now() - t; })()', returnByValue: true });
      console.log('rate', rate, 'page ms', pageMs, 'worker', JSON.stringify(r).slice(0, 200));
      const e = await call(2, 'Emulation.setCPUThrottlingRate', { rate });
      console.log('emulation on worker:', JSON.stringify(e).slice(0, 200));
      const r2 = await call(3, 'Runtime.evaluate', { expression: '(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 3e7; i++) x += i % 7; return performance.now() - t; })()', returnByValue: true });
      console.log('after', JSON.stringify(r2).slice(0, 200));
    }
    await cdp.detach();
    await tp.close();
  }
  await gw.stop();
} finally { await closeBrowser(); await env.close(); }

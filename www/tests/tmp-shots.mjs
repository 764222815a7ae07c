import { start } from './browser.mjs';
import { execFileSync } from 'node:child_process';
const env = await start();
const link = execFileSync('target/debug/kap', ['link', '-'], { input: execFileSync('target/debug/kap', ['preset', 'consumer-protocol-uniform']) }).toString().trim();
const fragment = link.slice(link.indexOf('#'));
for (const width of [1280, 390]) {
  const page = await env.browser.newPage({ viewport: { width, height: 900 } });
  page.on('pageerror', (e) => console.log('pageerror', String(e)));
  await page.goto(env.url + fragment);
  await page.waitForSelector('[data-server-assignor]', { timeout: 30000 });
  await page.screenshot({ path: `/tmp/kip-${width}.png`, fullPage: true });
  const section = page.locator('.consumer-protocol');
  await section.screenshot({ path: `/tmp/kip-${width}-section.png` });
  const scrollW = await page.evaluate(() => document.documentElement.scrollWidth);
  console.log(width, 'scrollWidth', scrollW);
}
await env.stop();

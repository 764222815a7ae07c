// Issue 9, the page's first render: the app's first render once the lead worker has opened the tab
// runs warm. V8 compiles the page's wasm a function at a time as each first runs, and that render was
// the first run of most of it (676 of those lazy compiles in one task at 1,000 partitions, 18–23 ms
// of the page's thread); the app rehearses it off the page while the lead worker reads the opening
// (`main.rs`), so the real one compiles few. Counted in a Chrome trace of the opening (the same
// events `perf/opening.mjs` counts), so it does not depend on the machine's speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, resultsShown, useBrowser } from './browser.mjs';

const env = useBrowser();

/** Before the page runs: a mark on the trace's clock, and when the app first went into `#page`. */
function recordFirstRender() {
  performance.mark('first-render-origin');
  window.__origin = performance.now();
  new MutationObserver((records, observer) => {
    if (records.some((r) => [...r.addedNodes].some((n) => n.nodeType === 1 && n.matches('div.app') && n.parentElement?.id === 'page'))) {
      window.__app = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

test("the app's first render on the page compiles little of the page's wasm: it was rehearsed in the wait", async () => {
  const page = await env.browser.newPage();
  const errors = collectErrors(page);
  await page.addInitScript(recordFirstRender);
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink.user_timing,v8.wasm,disabled-by-default-v8.wasm.detailed', transferMode: 'ReportEvents' });
  await page.goto(env.url);
  await resultsShown(page);
  const { origin, app } = await page.evaluate(() => ({ origin: window.__origin, app: window.__app }));
  await cdp.send('Tracing.end');
  await traced;

  const thread = (e) => `${e.pid}:${e.tid}`;
  const mark = events.filter((e) => e.name === 'first-render-origin').sort((a, b) => b.ts - a.ts)[0];
  assert.ok(mark && app !== undefined, 'the opening was traced and the app rendered');
  const main = events.filter((e) => thread(e) === thread(mark) && e.ph === 'X' && e.dur !== undefined);
  const at = mark.ts + (app - origin) * 1000;
  // The page thread's task the app went into the page in: the longest event around that moment.
  const task = main.filter((e) => e.ts <= at && e.ts + e.dur >= at).sort((a, b) => b.dur - a.dur)[0];
  assert.ok(task, 'the task that rendered the app');
  const lazy = (e) => e.name === 'wasm.CompileLazy';
  const inRender = main.filter((e) => lazy(e) && e.ts >= task.ts && e.ts < task.ts + task.dur).length;
  const before = main.filter((e) => lazy(e) && e.ts >= mark.ts && e.ts < task.ts).length;
  // Without the rehearsal: some 670 in the render, a few dozen before it.
  assert.ok(inRender < 300, `${inRender} functions compiled in the first render (${before} before it)`);
  assert.ok(before > inRender, `${before} compiled before the first render, ${inRender} in it`);
  // Nothing of the rehearsal is left: one app, on the page, and no message about a scenario not opened.
  assert.equal(await page.locator('div.app').count(), 1);
  assert.equal(await page.locator('.banner').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

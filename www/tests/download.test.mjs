// The smaller download (issue 9): the page runs none of the strategies. The walkthrough's steps
// come from the compute worker, one step per message, and follow the scenario on screen; an embed
// in a sandboxed iframe, where the browser refuses a worker from the page's origin, computes in a
// worker all the same (started from a blob: URL), never on the page's thread.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { collectErrors, panels, panelSelector, resultsShown, start } from './browser.mjs';
import { explain, kap, link, show, shownChips } from './kap.mjs';
import { installWire } from './wire.mjs';

let env;
let host;
before(async () => {
  // As embed.test.mjs: the playground's server allows CORS (GitHub Pages does), the host page is
  // another origin.
  env = await start({ headers: { 'access-control-allow-origin': '*' } });
  host = createServer((req, res) => {
    const { url } = link(kap(['preset', 'roundrobin-uneven']), env.url, { embed: true });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><link rel="icon" href="data:,"><iframe sandbox="allow-scripts" src="${url}" width="100%" height="600"></iframe>`);
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
});
after(async () => {
  await env?.stop();
  await new Promise((resolve) => host?.close(resolve) ?? resolve());
});

const PANEL = panelSelector('roundrobin');

/** Records, in the page, each message posted to a worker (bytes, `wire.mjs`): its kind and, for a walk, its request. */
const recordPosts = async (page) => {
  await page.addInitScript(installWire);
  await page.addInitScript(() => {
    window.__posts = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      const { kind, request } = window.__request(message);
      window.__posts.push(kind === 'Walk' ? { kind, ...request } : { kind });
      return post.call(this, message, ...rest);
    };
  });
};

const atStep = (page, n) => page.waitForSelector(`${PANEL} .explain[data-step="${n}"]`, { timeout: 5_000 });
const sentence = (page) => page.$eval(`${PANEL} .explain .sentence`, (e) => e.textContent);

test('the walkthrough\'s steps come from the compute worker, one per message, and follow the scenario on screen', async () => {
  const page = await env.browser.newPage();
  const errors = collectErrors(page);
  await recordPosts(page);
  await page.goto(env.url);
  await page.waitForSelector('section[data-strategy]', { timeout: 30_000 });
  await page.selectOption('header select', 'roundrobin-uneven');
  await page.waitForSelector(`${PANEL} [data-member="C2"] [data-partition="t2-2"]`);
  const uneven = explain(kap(['preset', 'roundrobin-uneven']), 'roundrobin').steps;

  await page.click(`${PANEL} button.explain-toggle:text-is("Explain")`);
  await atStep(page, 1);
  for (const n of [2, 3]) {
    await page.click(`${PANEL} .controls button:text-is("Next")`);
    await atStep(page, n);
    assert.equal(await sentence(page), uneven[n - 1].text);
  }
  const walks = await page.evaluate(() => window.__posts.filter((p) => p.kind === 'Walk'));
  assert.deepEqual(walks.map((w) => [w.strategy, w.step]), [['roundrobin', 0], ['roundrobin', 1], ['roundrobin', 2]]);
  assert.equal(new Set(walks.map((w) => w.version)).size, 1);

  // Another scenario on screen: the same step of its own walk, asked for its version.
  await page.selectOption('header select', 'sticky-crash-c3');
  const crash = explain(kap(['preset', 'sticky-crash-c3']), 'roundrobin').steps;
  await page.waitForFunction(
    ([panel, text]) => document.querySelector(`${panel} .explain .sentence`)?.textContent === text,
    [PANEL, crash[2].text],
    { timeout: 5_000 },
  );
  assert.equal(await page.$eval(`${PANEL} .explain .position`, (e) => e.textContent), `step 3 of ${crash.length}`);
  const last = await page.evaluate(() => window.__posts.filter((p) => p.kind === 'Walk').at(-1));
  assert.notEqual(last.version, walks[0].version);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sandboxed embed computes in a worker started from a blob: URL, not on the page\'s thread', async () => {
  const page = await env.browser.newPage();
  const errors = collectErrors(page);
  await page.goto(`http://127.0.0.1:${host.address().port}/`);
  const handle = await page.waitForSelector('iframe');
  const frame = await handle.contentFrame();
  await frame.waitForSelector('section[data-strategy]', { timeout: 30_000 });
  await resultsShown(frame);
  // The frame's origin is opaque: a worker from the page's address is refused.
  assert.equal(await frame.evaluate(() => self.origin), 'null');
  assert.equal(await frame.evaluate(() => { try { new Worker('worker.js'); return 'started'; } catch (e) { return e.name; } }), 'SecurityError');
  // The answer painted crossed from a worker: the page measures each answer it receives.
  assert.equal(await frame.evaluate(() => performance.getEntriesByName('answer:decode').length), 1);
  assert.deepEqual(await panels(frame), shownChips(show(kap(['preset', 'roundrobin-uneven']))));
  assert.deepEqual(errors, []);
  await page.close();
});

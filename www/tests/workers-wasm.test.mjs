// The compute workers' wasm at the opening (issue 9, stop 21): the lead worker fetches and compiles
// the 1.8 MB once and hands the module to the other (browser.rs, give_wasm), so the two cores no
// longer fetch and read it twice beside the page's first frames; where it cannot be compiled
// there, each worker loads its own, as before. Either way both workers compute their share and the
// panels show kap batch's answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, panels, resultsShown, STRATEGIES, useBrowser } from './browser.mjs';
import { batch, link } from './kap.mjs';

const env = useBrowser();

const SCENARIO = JSON.stringify({
  version: 1,
  topics: [
    { name: 't0', partitions: 6 },
    { name: 't1', partitions: 4 },
  ],
  consumers: [
    { id: 'C0', topics: ['t0', 't1'] },
    { id: 'C1', topics: ['t0'] },
    { id: 'C2', topics: ['t0', 't1'] },
  ],
});

/**
 * Opens the scenario on a page whose browser reports four cores (two workers), `route` set up
 * first; the requests for the workers' wasm, the workers' names and the panels as shown.
 */
async function open(route = async () => {}) {
  const page = await env.browser.newPage();
  const errors = collectErrors(page);
  const wasm = [];
  page.context().on('request', (r) => r.url().endsWith('/worker_bg.wasm') && wasm.push(r.url()));
  await route(page);
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 4 }));
  await page.goto(link(SCENARIO, env.url));
  await page.waitForSelector('section[data-strategy]', { timeout: 30_000 });
  await resultsShown(page);
  const names = (await Promise.all(page.workers().map((w) => w.evaluate(() => self.name)))).sort();
  return { page, errors, wasm, names };
}

/** The classic strategies' panels: each member's partitions exactly as kap batch assigns them. */
async function assertKapPanels(page) {
  const { topics, consumers } = JSON.parse(SCENARIO);
  const counts = Object.fromEntries(topics.map((t) => [t.name, t.partitions]));
  const members = consumers.map((c) => ({ id: c.id, topics: c.topics }));
  const expected = batch(STRATEGIES.map((strategy) => ({ strategy, topics: counts, members })));
  const shown = await panels(page);
  assert.deepEqual(
    STRATEGIES.map((s) => shown[s]),
    expected,
  );
}

test("the compute workers' wasm is fetched once, by the lead, and both workers compute their share", async () => {
  const { page, errors, wasm, names } = await open();
  assert.equal(names.filter((n) => n !== '').length, 2, `two compute workers: ${names}`);
  assert.equal(wasm.length, 1, `worker_bg.wasm requested ${wasm.length} times`);
  await assertKapPanels(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test("where the lead cannot compile the workers' wasm, each worker loads its own and the panels are the same", async () => {
  // Served as text, which WebAssembly.compileStreaming refuses; the glue's own loading reads it whole instead.
  const asText = (page) =>
    page.route('**/worker_bg.wasm', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'text/plain' } });
    });
  const { page, errors, wasm, names } = await open(asText);
  assert.equal(names.filter((n) => n !== '').length, 2, `two compute workers: ${names}`);
  assert.equal(wasm.length, 3, `worker_bg.wasm requested ${wasm.length} times: the lead's compile, then each worker's own`);
  await assertKapPanels(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test("where the workers' wasm cannot be had at all, the page opens, says why and keeps the link, rather than 'Opening…' for ever", async () => {
  const page = await env.browser.newPage();
  await page.route('**/worker_bg.wasm', (route) => route.abort());
  const url = link(SCENARIO, env.url);
  await page.goto(url);
  // The lead worker reads the link; without workers the page opens on an empty group and says why.
  await page.getByText('the compute worker stopped').waitFor({ timeout: 15_000 });
  assert.equal(await page.getByText('Opening the link…').count(), 0);
  // Nothing is written without the workers: the address bar still holds the link, to open again.
  assert.equal(page.url(), url);
  await page.close();
});

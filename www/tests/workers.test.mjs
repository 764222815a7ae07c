// Strategies in parallel: on a machine of two cores or more the page runs two compute workers,
// `lead` (range, roundrobin, what every panel shares) and `help` (sticky, cooperative-sticky), and
// paints a version once both parts are in. One worker (a one-core machine) computes everything.
// Both pages must show exactly the same thing after the same edits — panels, rounds, and the
// history a big group is exported with, which each worker holds its share of: the group's
// generation is the cooperative rebalance's (a round more than the eager ones), gathered from both
// workers and handed back before the next edit builds on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, exportScenario, panelDetails, resultsShown as idle, typedCount, useBrowser } from './browser.mjs';
import { link } from './kap.mjs';

const env = useBrowser();

/** 3 topics × 2,000 partitions (above the 5,000 a page holds the history of), 12 consumers. */
function scenarioText() {
  const names = ['t0', 't1', 't2'];
  return JSON.stringify({
    version: 1,
    topics: names.map((name) => ({ name, partitions: 2000 })),
    consumers: Array.from({ length: 12 }, (_, i) => ({ id: `C${i}`, topics: i % 2 ? names.slice(0, 2) : names })),
  });
}

/** Opens the group in a page whose browser reports `cores` cores; the names of its workers. */
async function open(cores) {
  const page = await env.browser.newPage();
  const errors = collectErrors(page);
  await page.addInitScript((n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), cores);
  await page.goto(env.url + '#' + link(scenarioText(), env.url).split('#')[1]);
  await page.waitForSelector('section[data-strategy]', { timeout: 60_000 });
  await idle(page, 60_000);
  const names = await Promise.all(page.workers().map((w) => w.evaluate(() => self.name)));
  return { page, errors, names: names.sort() };
}

/**
 * The same edits on `page`: a consumer joins; then three edits before any answer can come (the
 * first computed while the second waits and the third replaces it: the second is settled on the
 * way, unshown); then one more.
 */
async function edit(page) {
  // Clicked from inside the page: a pointer's click, aimed while the editor's rows still come in
  // and move the button, can land beside it under load, and the two pages would differ by it.
  const addConsumer = `[...document.querySelectorAll('button')].find((b) => b.textContent === 'Add consumer').click();`;
  await page.evaluate(addConsumer);
  await idle(page, 60_000);
  await page.evaluate([typedCount('t0', 1999), addConsumer, typedCount('t2', 1999)].join('\n'));
  await idle(page, 60_000);
  await page.evaluate(typedCount('t1', 1998));
  await idle(page, 60_000);
}

test('two workers, each its share of the strategies, show and export exactly what one worker does', async () => {
  const two = await open(2);
  const one = await open(1);
  assert.deepEqual(two.names, ['help', 'lead']);
  assert.deepEqual(one.names, ['all']);
  assert.deepEqual(await panelDetails(two.page), await panelDetails(one.page), 'as opened');
  await Promise.all([edit(two.page), edit(one.page)]);
  for (const { page } of [two, one]) {
    assert.equal(await page.locator('ol.consumers > li.consumer').count(), 14, 'both consumers joined');
  }
  const details = await panelDetails(two.page);
  assert.deepEqual(Object.keys(details), ['range', 'roundrobin', 'sticky', 'cooperative-sticky']);
  assert.deepEqual(details, await panelDetails(one.page), 'after the edits');
  // A cooperative rebalance of two rounds beside eager ones of one: the generations differ by
  // strategy, and the history carries the group's, the highest.
  assert.ok(details['cooperative-sticky'].rounds.length > details.sticky.rounds.length, JSON.stringify(details));
  const exported = await exportScenario(two.page);
  assert.equal(exported, await exportScenario(one.page));
  assert.match(exported, /"previous"/);
  assert.deepEqual([...two.errors, ...one.errors], []);
  await Promise.all([two.page.close(), one.page.close()]);
});

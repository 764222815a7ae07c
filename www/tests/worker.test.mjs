// The compute worker: the strategies run off the page's thread and each answer carries the version
// of the scenario it is of. Edits that come faster than the answers are each still a rebalance
// from the one before, the panels end on exactly what `kap batch` assigns for the last scenario,
// the results region is aria-busy only while an answer is pending, and no answer is painted for a
// scenario that is no longer on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, panels, resultsShown as idle, typedCount, useBrowser, waitForPanels } from './browser.mjs';
import { Group } from './group.mjs';
import { link } from './kap.mjs';

const env = useBrowser();

/**
 * 4 topics × 100 partitions, 30 consumers: even ones read every topic, odd ones t0 and t1 (under
 * the digest's chip limit, 500 partitions, through every edit below: each member's chips are shown).
 */
function startingGroup() {
  const topics = { t0: 100, t1: 100, t2: 100, t3: 100 };
  const members = Array.from({ length: 30 }, (_, i) => ({
    id: `C${i}`,
    topics: i % 2 ? ['t0', 't1'] : ['t0', 't1', 't2', 't3'],
  }));
  return new Group(topics, members);
}

/**
 * In the page, from now on: every state of the results region (aria-busy, the version on screen,
 * the version painted), as each render leaves it.
 */
const record = (page) =>
  page.evaluate(() => {
    const results = document.querySelector('.results');
    const seen = (window.__seen = []);
    const note = () =>
      seen.push({ busy: results.getAttribute('aria-busy'), version: results.dataset.version, shown: results.dataset.shown });
    note();
    new MutationObserver(note).observe(results, { attributes: true });
  });

test('edits faster than the answers: the panels end on kap batch for the last scenario, never painting a stale one', async () => {
  const group = startingGroup();
  const { page, errors } = await openPlayground(env, '#' + link(group.scenarioText(), env.url).split('#')[1]);
  let shown = group.expected(null);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'as opened');
  await idle(page);
  await record(page);
  const first = await page.$eval('.results', (r) => r.dataset.version);

  // Four edits in one go, before any answer can come: t0, t1, t0 again (after t1: a new
  // rebalance), t2. Each is a rebalance from the one before, although only the last is painted.
  const edits = [
    ['t0', 101],
    ['t1', 99],
    ['t0', 102],
    ['t2', 7],
  ];
  await page.evaluate(edits.map(([t, n]) => typedCount(t, n)).join('\n'));
  for (const [topic, n] of edits) {
    group.topics[topic] = n;
    shown = group.expected(shown);
  }
  await idle(page);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'after four quick edits');
  group.checkInvariants(await panels(page));

  const seen = await page.evaluate(() => window.__seen);
  assert.ok(seen.some((s) => s.busy === 'true'), 'aria-busy while the answer was pending');
  const last = seen.at(-1);
  assert.equal(last.busy, 'false');
  assert.equal(last.shown, last.version);
  for (const state of seen) {
    // Never idle on an answer of another version, and never an intermediate version painted.
    if (state.busy === 'false') assert.equal(state.shown, state.version, JSON.stringify(state));
    assert.ok([first, last.version].includes(state.shown), `painted version ${state.shown}: ${JSON.stringify(seen)}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('edits while the worker computes: each answer painted is of the scenario on screen, and undo comes back to kap', async () => {
  const group = startingGroup();
  const { page, errors } = await openPlayground(env, '#' + link(group.scenarioText(), env.url).split('#')[1]);
  let shown = group.expected(null);
  await waitForPanels(page, shown);
  await idle(page);
  await record(page);

  // Typed a few milliseconds apart: some answers come between edits, some after the next one.
  const history = [shown];
  for (const [topic, n] of [
    ['t3', 101],
    ['t2', 102],
    ['t3', 103],
    ['t1', 104],
    ['t0', 105],
  ]) {
    await page.evaluate(typedCount(topic, n));
    await page.waitForTimeout(5);
    group.topics[topic] = n;
    shown = group.expected(shown);
    history.push(shown);
  }
  await idle(page);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'after the edits');
  const seen = await page.evaluate(() => window.__seen);
  for (const state of seen) {
    if (state.busy === 'false') assert.equal(state.shown, state.version, JSON.stringify(state));
  }
  // Painted versions only grow: an older answer never replaces a newer one.
  const painted = seen.map((s) => Number(s.shown));
  assert.deepEqual(painted, [...painted].sort((a, b) => a - b));

  // Undo twice: back to the scenario two edits ago, as kap assigns it from the one before.
  for (const back of [1, 2]) {
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await idle(page);
    await waitForPanels(page, history.at(-1 - back));
    assert.deepEqual(await panels(page), history.at(-1 - back), `undo ${back}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

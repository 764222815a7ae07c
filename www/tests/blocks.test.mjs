// Issue 9, the page's thread never blocked: the page opens in slices (the header alone, then the
// editing column a part per frame, then the results region's sections one per frame, the region
// busy until the last is in) and still shows exactly what `kap batch` assigns; a big group's edits
// reach the workers after the edit's own frame, the newest winning; at the opening the first
// panel waits after the first answer; the Configuration names a few consumers of a long list and
// counts the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { panels, resultsShown, STRATEGIES, typedCount, useBrowser, waitForPanels } from './browser.mjs';
import { Group } from './group.mjs';
import { link } from './kap.mjs';
import { installWire } from './wire.mjs';

const env = useBrowser();

/** What the page has drawn, in the order it drew it: each part's selector. */
const PARTS = {
  header: 'header.top',
  topics: 'section.topics-editor',
  consumers: 'section.consumers-editor',
  protocol: 'section.protocol-editor',
  events: 'section.events',
  results: '.results',
  configuration: 'section.config',
};

/**
 * Before the page runs: numbers the frames in `window.__frame` (0 before the first), counted at
 * the start of each frame's animation callbacks, so that everything the page does in a frame's
 * callbacks and in the tasks until the next frame carries that frame's number. (The document
 * timeline's time cannot name a frame: Chromium's clock also moves in tasks between frames and
 * never goes back, so a task that runs after a vsync's tick but before its frame shares the
 * frame's time.)
 */
function countFrames() {
  window.__frame = 0;
  const tick = () => {
    window.__frame++;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/**
 * Before the page runs: after each batch of changes to the document, what is on it (which parts,
 * how many panels, whether the results region is busy) and the frame it is in (`countFrames`),
 * whenever that changed.
 */
function recordOpening(parts) {
  window.__drawn = [];
  const look = () => {
    const results = document.querySelector('.results');
    const seen = {
      frame: window.__frame,
      parts: Object.keys(parts).filter((part) => document.querySelector(parts[part])),
      panels: document.querySelectorAll('section[data-strategy]').length,
      busy: results?.getAttribute('aria-busy') ?? null,
    };
    const last = window.__drawn.at(-1);
    const same = (a, b) => a && a.parts.join() === b.parts.join() && a.panels === b.panels && a.busy === b.busy;
    if (!same(last, seen)) window.__drawn.push(seen);
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
}

/** Ten topics of `partitions` each; `consumers` consumers, the odd ones on the first five topics. */
function mixedGroup(partitions, consumers) {
  const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
  return new Group(
    Object.fromEntries(names.map((name) => [name, partitions])),
    Array.from({ length: consumers }, (_, i) => ({ id: `C${i}`, topics: i % 2 ? names.slice(0, 5) : names })),
  );
}

test('the page opens in slices, one per frame, busy until the last, and its panels are what kap batch assigns', async () => {
  const group = mixedGroup(40, 30);
  const page = await env.browser.newPage();
  await page.addInitScript(countFrames);
  await page.addInitScript(recordOpening, PARTS);
  await page.goto(link(group.scenarioText(), env.url));
  await resultsShown(page);
  const shown = group.expected(null);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown);
  const drawn = await page.evaluate(() => window.__drawn);
  // The first frame each part was on the page in.
  const firstFrame = (part) => drawn.find((d) => d.parts.includes(part))?.frame;
  const first = drawn.find((d) => d.parts.length)?.parts ?? [];
  assert.ok(first.includes('header'), `the header first: ${JSON.stringify(drawn)}`);
  assert.ok(!['topics', 'consumers', 'protocol', 'configuration'].some((p) => first.includes(p)), `the header alone: ${first}`);
  const order = ['header', 'topics', 'consumers', 'protocol', 'configuration'].map((part) => [part, firstFrame(part)]);
  for (const [[before, was], [after, is]] of order.slice(0, -1).map((p, i) => [p, order[i + 1]])) {
    assert.ok(is > was, `${after} (frame ${is}) after ${before} (frame ${was}): ${JSON.stringify(drawn)}`);
  }
  assert.equal(firstFrame('events'), firstFrame('protocol'), 'the protocol, weights and events come together');
  // The panels one per frame, after the Configuration.
  const panelFrames = [1, 2, 3, 4].map((n) => drawn.find((d) => d.panels >= n)?.frame);
  assert.ok(panelFrames[0] > firstFrame('configuration'));
  for (let i = 1; i < 4; i++) assert.ok(panelFrames[i] > panelFrames[i - 1], `panel ${i + 1} in a frame of its own: ${panelFrames}`);
  // Busy from the region's first appearance until the last panel is in; then not.
  const lastPanel = drawn.findIndex((d) => d.panels === 4);
  const withRegion = drawn.slice(0, lastPanel).filter((d) => d.busy !== null);
  assert.ok(withRegion.length > 0 && withRegion.every((d) => d.busy === 'true'), JSON.stringify(drawn));
  assert.equal(drawn.at(-1).busy, 'false');
  assert.deepEqual(await page.$$eval('section[data-strategy]', (s) => s.map((p) => p.dataset.strategy)), STRATEGIES);

  // Every part stays: an edit is painted as before, and the panels are kap batch's rebalance.
  const before = drawn.length;
  group.topics.t3 = 39;
  await page.evaluate(typedCount('t3', 39));
  await resultsShown(page);
  const next = group.expected(shown);
  await waitForPanels(page, next);
  assert.deepEqual(await panels(page), next);
  const after = (await page.evaluate(() => window.__drawn)).slice(before);
  assert.ok(after.every((d) => d.parts.length === Object.keys(PARTS).length && d.panels === 4), JSON.stringify(after));
  await page.close();
});

test("a big group's edits reach the workers after the edit's frame, the newest winning", async () => {
  // 6,000 partitions: the workers keep its settled assignment (more than 20,000 entries).
  const group = mixedGroup(600, 40);
  const page = await env.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(link(group.scenarioText(), env.url));
  await resultsShown(page, 60_000);
  const note = () => page.locator('.summary .note').textContent();
  assert.match(await note(), /^6000 partitions, 40 consumers:/);
  // Two edits of different fields in one task: two versions, the second built on the first.
  const version = Number(await page.$eval('.results', (r) => r.dataset.version));
  await page.evaluate(`${typedCount('t0', 599)}\n${typedCount('t1', 598)}`);
  await resultsShown(page, 60_000);
  assert.equal(Number(await page.$eval('.results', (r) => r.dataset.shown)), version + 2);
  assert.match(await note(), /^5997 partitions, 40 consumers:/);
  // One more, alone: painted too.
  await page.evaluate(typedCount('t2', 601));
  await resultsShown(page, 60_000);
  assert.match(await note(), /^5998 partitions, 40 consumers:/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Configuration names a few consumers of a long list and counts the others', async () => {
  // Thirty consumers on the default lists: the way to cooperative-sticky bounces fifteen of them midway.
  const group = mixedGroup(4, 30);
  const page = await env.browser.newPage();
  await page.goto(link(group.scenarioText(), env.url));
  await resultsShown(page);
  const steps = await page.$$eval('section.config ol.migration li', (items) => items.map((li) => li.textContent));
  const midway = steps.filter((s) => s.includes('midway'));
  assert.ok(midway.length > 0, steps.join('\n'));
  for (const step of midway) assert.match(step, /midway \(C0, C1, C2 and 12 others restarted\)/);
  assert.ok(steps.every((s) => !/C3\b/.test(s)), steps.join('\n'));
  // A short list is named whole.
  const few = mixedGroup(4, 6);
  await page.goto(link(few.scenarioText(), env.url));
  await resultsShown(page);
  const short = await page.$$eval('section.config ol.migration li', (items) => items.map((li) => li.textContent));
  assert.ok(short.some((s) => s.includes('midway (C0, C1, C2 restarted)')), short.join('\n'));
  await page.close();
});

/**
 * Before the page runs: each frame's count of elements on the page and of consumer rows (the
 * frame as `countFrames` numbers it, the same for every task until the next frame; a render
 * Yew's scheduler carries over into a task of its own counts with its frame), the frames the
 * editing column's last part and the first Configuration appeared in, the frame of the first
 * job posted to a compute worker, the frame the results region first showed every section with an
 * answer (`whole`) and the frame the warm-up's first round was posted in (its version is
 * `work::WARM_UP`, u64::MAX, less the round).
 */
function recordWork() {
  window.__frames = new Map();
  window.__firsts = {};
  const note = () => {
    const frame = window.__frame;
    window.__frames.set(frame, {
      elements: document.getElementsByTagName('*').length,
      rows: document.querySelectorAll('li.consumer').length,
      topics: document.querySelectorAll('table.topics tbody[data-row]').length,
      panels: document.querySelectorAll('section.panel').length,
      panelRows: document.querySelectorAll('section.panel [data-member]').length,
    });
    for (const [part, selector] of [['consumers', 'section.consumers-editor'], ['protocol', 'section.protocol-editor'], ['configuration', 'section.config']]) {
      if (!(part in window.__firsts) && document.querySelector(selector)) window.__firsts[part] = frame;
    }
  };
  const whole = () => {
    const results = document.querySelector('.results');
    if (!('whole' in window.__firsts) && results?.getAttribute('aria-busy') === 'false' && results.dataset.shown !== '0') {
      window.__firsts.whole = window.__frame;
    }
  };
  // Elements taken out of the topics table (its head and rows re-created show as taken out).
  window.__topicsRemoved = 0;
  const removed = (records) => {
    for (const r of records) {
      if (r.target.matches?.('table.topics')) window.__topicsRemoved += [...r.removedNodes].filter((n) => n.nodeType === 1).length;
    }
  };
  new MutationObserver((records) => (note(), removed(records))).observe(document, { childList: true, subtree: true });
  new MutationObserver(whole).observe(document, { subtree: true, attributes: true, attributeFilter: ['aria-busy', 'data-shown'] });
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    // Read before it is posted: its buffer is handed over (wire.mjs installs the reader).
    const request = window.__request(message);
    if (!('job' in window.__firsts) && request.kind === 'Compute') {
      window.__firsts.job = window.__frame;
    }
    if (!('warmUp' in window.__firsts) && request.jobs?.some((job) => /^1844674407370955161[2-5]$/.test(job.version))) {
      window.__firsts.warmUp = window.__frame;
    }
    return post.call(this, message, ...rest);
  };
}

test("the opening's frames each render a little: the first rows few, six at most, each part after the rows before it, the workers' first job after the Configuration, each panel's rows a slice per frame, the warm-up after the panels", async () => {
  // 10 topics (a subscriptions picker per consumer), 60 consumers: the rows take two frames.
  const group = mixedGroup(40, 60);
  const page = await env.browser.newPage();
  await page.addInitScript(countFrames);
  await page.addInitScript(installWire);
  await page.addInitScript(recordWork);
  await page.goto(link(group.scenarioText(), env.url));
  await resultsShown(page);
  await page.waitForFunction(() => document.querySelectorAll('section[data-strategy]').length === 4);
  await page.waitForFunction(() => 'warmUp' in window.__firsts);
  const { frames, firsts } = await page.evaluate(() => ({ frames: [...window.__frames], firsts: window.__firsts }));
  // What each frame added: its counts less the frame's before.
  const added = frames.slice(1).map(([frame, now], i) => ({
    frame,
    elements: now.elements - frames[i][1].elements,
    rows: now.rows - frames[i][1].rows,
    topics: now.topics - frames[i][1].topics,
    panels: now.panels - frames[i][1].panels,
    panelRows: now.panelRows - frames[i][1].panelRows,
  }));
  const seen = JSON.stringify(added);
  // Twenty rows in a frame were 560 elements and the opening's longest task; ten are 280, the
  // topics editor's ten topics 240 (five now, with the title). (A panel with chips, below 500 partitions, is some 770
  // elements of its own frame: the panels are not the editing column's.)
  const editing = added.filter((f) => f.frame < firsts.configuration);
  assert.ok(added.every((f) => f.rows <= 6), `six consumer rows a frame at most: ${seen}`);
  // Only the rows near the window are mounted at the opening (the rest as the page scrolls toward
  // them: consumer-rows.test.mjs), 5 then 5: the first rows' code runs cold (two to three times the
  // cost of later rows).
  const rowSlices = added.filter((f) => f.rows > 0).map((f) => f.rows);
  assert.deepEqual(rowSlices, [5, 5], `the rows' slices: ${seen}`);
  // The topics editor's ten rows, the page's first heavy render, in two frames; the consumers
  // editor in the frame after the last.
  assert.deepEqual(added.filter((f) => f.topics > 0).map((f) => f.topics), [5, 5], `the topics' slices: ${seen}`);
  const lastTopics = frames.find(([, f]) => f.topics === 10)[0];
  assert.ok(firsts.consumers > lastTopics, `the consumers editor (${firsts.consumers}) after the topics (${lastTopics})`);
  // Each slice adds its rows to the table; none re-creates the table (its head keyed as its rows
  // are), nor does a topic added later.
  assert.equal(await page.evaluate(() => window.__topicsRemoved), 0, 'nothing taken out of the topics table while it opens');
  await page.click('section.topics-editor > button');
  await page.waitForFunction(() => document.querySelectorAll('table.topics tbody[data-row]').length === 11);
  assert.equal(await page.evaluate(() => window.__topicsRemoved), 0, 'nothing taken out of the topics table when a topic is added');
  assert.ok(editing.every((f) => f.elements <= 320), `no frame of the editing column adds more than 320 elements: ${seen}`);
  assert.equal(Math.max(...frames.map(([, f]) => f.rows)), 10);
  // The protocol part comes in a frame after the last rows', the Configuration after it.
  const lastRows = frames.find(([, f]) => f.rows === 10)[0];
  assert.ok(firsts.protocol > lastRows, `the protocol part (${firsts.protocol}) after the rows (${lastRows})`);
  assert.ok(firsts.configuration > firsts.protocol);
  // The workers get the first job once the editing column and the Configuration are in (after
  // the Configuration's frame), not while they come.
  assert.ok(firsts.job >= firsts.configuration, `the first job (${firsts.job}) once the Configuration (${firsts.configuration}) is in`);
  // The warm-up starts once the results region shows every section, not while the panels come.
  assert.ok(firsts.whole > firsts.configuration, JSON.stringify(firsts));
  assert.ok(firsts.warmUp >= firsts.whole, `the warm-up (${firsts.warmUp}) once the region is whole (${firsts.whole})`);
  // A panel with chips (400 partitions) was one frame of some 770 elements, its 60 rows at once:
  // each panel comes with its head, figures and first 4 rows, then 4, 8, then 12 a frame, and the
  // next panel in the frame after the last rows of the one before it (no frame adds both).
  const panelSlices = added.filter((f) => f.panelRows > 0).map((f) => f.panelRows);
  const onePanel = [4, 4, 8, 12, 12, 12, 8];
  assert.deepEqual(panelSlices, [...onePanel, ...onePanel, ...onePanel, ...onePanel], `the panels' rows: ${seen}`);
  assert.ok(added.filter((f) => f.panels > 0).every((f) => f.panels === 1 && f.panelRows === 4), `a panel a frame, with its first rows alone: ${seen}`);
  assert.equal(Math.max(...frames.map(([, f]) => f.panelRows)), 240);
  await page.close();
});

/**
 * Before the page runs: when the results region first showed an answer (`data-shown` no longer 0)
 * with the workers' time for it (`data-compute-ms`), and when the first panel came.
 */
function recordFirstPanel() {
  window.__answered = null;
  window.__firstPanel = null;
  new MutationObserver(() => {
    const results = document.querySelector('.results');
    if (window.__answered === null && results && results.dataset.shown !== '0') {
      window.__answered = { at: performance.now(), computeMs: Number(results.dataset.computeMs) };
    }
    if (window.__firstPanel === null && document.querySelector('section[data-strategy]')) window.__firstPanel = performance.now();
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-shown'] });
}

test("at the opening the first panel waits after the first answer as long as the workers took for it, at most 100 ms", async () => {
  // 100,000 partitions, 500 consumers: a rebalance of hundreds of milliseconds, its code run cold.
  // V8 compiles that code's hot functions again (its optimising tier) on every core for tens of
  // milliseconds after the answer, and the first panel's frame beside it took 51–62 ms.
  const group = mixedGroup(10_000, 500);
  const page = await env.browser.newPage();
  await page.addInitScript(recordFirstPanel);
  await page.goto(link(group.scenarioText(), env.url));
  await resultsShown(page);
  const { answered, firstPanel } = await page.evaluate(() => ({ answered: window.__answered, firstPanel: window.__firstPanel }));
  const seen = JSON.stringify({ answered, firstPanel });
  // Long enough that the panel's usual frame after the answer (16–33 ms) would not pass.
  assert.ok(answered.computeMs >= 40, `a rebalance of 100,000 partitions takes the workers 40 ms or more: ${seen}`);
  const due = Math.min(Math.floor(answered.computeMs), 100);
  assert.ok(firstPanel - answered.at >= due - 1, `the first panel ${due} ms or more after the answer: ${seen}`);
  await page.close();
});

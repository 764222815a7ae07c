// An edit's frames (issue 9, 1,000 partitions × 50 consumers): once the first answer is painted,
// the page has the workers compute an edit the person might make next (one partition fewer on the
// first topic), in rounds, each once the last one's answer is in, and never paints their answers
// (they warm both programs' code, which V8 otherwise compiles during the first edit); an edit's
// busy results dim without a compositor animation (a layer made and dropped each edit); a small
// group's edit renders nothing until its answer comes (state::HOLD_MS at most), then both at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, panels, renderCounts, resultsShown, shownAbove, typedCount, useBrowser, waitForPanels } from './browser.mjs';
import { Group } from './group.mjs';
import { link } from './kap.mjs';
import { openStartingGroup, recordMessages } from './messages.mjs';

const env = useBrowser();

/** The warm-up's versions (`work::WARM_UP` - round, u64::MAX down), as they cross in a request's text and an answer's bytes. */
const WARM_UP_ROUNDS = 4; // work::WARM_UP_ROUNDS
const WARM_UPS = Array.from({ length: WARM_UP_ROUNDS }, (_, round) => String(2n ** 64n - 1n - BigInt(round)));
const WARM_UP = WARM_UPS[0];
const LAST_WARM_UP = WARM_UPS.at(-1);

test('after the first answer the workers compute the warm-up rounds, never painted; the next edit is kap batch', async () => {
  const { group, page, errors } = await openStartingGroup(env, recordMessages);
  let shown = group.expected(null);
  await waitForPanels(page, shown);
  await page.waitForFunction((v) => window.__answers.includes(v), LAST_WARM_UP, { timeout: 10_000 });
  const computes = await page.evaluate(() => window.__computes);
  assert.deepEqual(computes, [['1'], ...WARM_UPS.map((v) => [v])], 'the first version, then the warm-up rounds');
  assert.deepEqual(await page.evaluate(() => window.__answers), ['1', ...WARM_UPS]);
  // Each round is the settled group with one partition fewer on t0, as typing 11 would make it.
  const scenarios = await page.evaluate(() => window.__warmUpPartitions);
  assert.deepEqual(scenarios, WARM_UPS.map(() => 11));
  // Its answer is not painted: the same version on screen, not busy, the same panels.
  const results = await page.$eval('.results', (r) => [r.getAttribute('aria-busy'), r.dataset.version, r.dataset.shown]);
  assert.deepEqual(results, ['false', '1', '1']);
  assert.deepEqual(await panels(page), shown);

  // The next edit rebalances from the answer on screen, as ever.
  await page.evaluate(typedCount('t0', 11));
  group.topics.t0 = 11;
  shown = group.expected(shown);
  await resultsShown(page);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'after the edit');
  assert.deepEqual((await page.evaluate(() => window.__computes)).slice(1 + WARM_UP_ROUNDS), [['2']], 'no more warm-up');
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * In the page, from its start: the compute workers' messages to the page are held back while
 * `window.__holdAnswers` is true, and `window.__releaseAnswers()` hands them on in order.
 */
const holdAnswers = (page) =>
  page.addInitScript(() => {
    window.__holdAnswers = false;
    window.__held = [];
    window.__releaseAnswers = () => {
      window.__holdAnswers = false;
      for (const give of window.__held.splice(0)) give();
    };
    const listen = Worker.prototype.addEventListener;
    Worker.prototype.addEventListener = function (type, listener, ...rest) {
      if (type !== 'message') return listen.call(this, type, listener, ...rest);
      const held = (e) => (window.__holdAnswers ? window.__held.push(() => listener.call(this, e)) : listener.call(this, e));
      return listen.call(this, type, held, ...rest);
    };
  });

/** `state::HOLD_MS`: the longest a small group's edit waits for its answer before it is rendered busy. */
const HOLD_MS = 50;

/** The starting group opened in a page whose answers `holdAnswers` can hold back, once its first answer is shown and the warm-up has had its time. */
async function openHoldingAnswers() {
  const opened = await openStartingGroup(env, holdAnswers);
  await opened.page.waitForTimeout(300);
  return opened;
}

test('busy results dim through --dim: no opacity animation (no layer) while the answer is on its way', async () => {
  const { page, errors } = await openHoldingAnswers();
  // The answer held back: the edit waits HOLD_MS for it, then is rendered busy. As that render
  // leaves the results region: the transitions the busy state starts, by property and element.
  const started = await page.evaluate(`(async () => {
    window.__holdAnswers = true;
    const results = document.querySelector('.results');
    const busy = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (results.getAttribute('aria-busy') !== 'true') return;
        observer.disconnect();
        getComputedStyle(document.querySelector('.panels')).opacity;
        resolve(document.getAnimations().map((a) => [a.transitionProperty, a.effect.target.className]));
      });
      observer.observe(results, { attributes: true });
    });
    ${typedCount('t1', 11)}
    return busy;
  })()`);
  assert.ok(started.length > 0, 'the busy state starts a transition');
  for (const [property, target] of started) {
    assert.equal(property, '--dim', `${target}: ${property}`);
  }
  await page.evaluate(() => window.__releaseAnswers());
  await resultsShown(page);
  // Answered: nothing dims, nothing animates.
  const after = await page.evaluate(() => ({
    opacity: getComputedStyle(document.querySelector('.panels')).opacity,
    animations: document.getAnimations().map((a) => [a.transitionProperty ?? a.animationName, a.effect.target.className, a.playState]),
  }));
  assert.deepEqual(after, { opacity: '1', animations: [] });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a small group's edit is rendered with its answer, or busy once HOLD_MS have passed without it", async () => {
  const { group, page, errors } = await openHoldingAnswers();
  let shown = group.expected(null);
  await waitForPanels(page, shown);
  /** Edits t0 to `n` and records each state the results region is left in, with the ms since the edit. */
  const edit = (n, hold) =>
    page.evaluate(`(async () => {
      window.__holdAnswers = ${hold};
      const results = document.querySelector('.results');
      const seen = [];
      const note = () => seen.push({ at: performance.now() - t0, busy: results.getAttribute('aria-busy'), version: results.dataset.version, shown: results.dataset.shown });
      new MutationObserver(note).observe(results, { attributes: true });
      const before = results.dataset.version;
      const t0 = performance.now();
      ${typedCount('t0', n)}
      await Promise.resolve();
      const atOnce = { busy: results.getAttribute('aria-busy'), version: results.dataset.version };
      if (${hold}) {
        while (results.getAttribute('aria-busy') !== 'true') await new Promise((r) => setTimeout(r, 5));
        window.__releaseAnswers();
      }
      while (results.getAttribute('aria-busy') !== 'false' || results.dataset.shown === before) await new Promise((r) => requestAnimationFrame(r));
      return { before, atOnce, seen };
    })()`);

  // Its answer held back: nothing renders until HOLD_MS have passed; then busy, then the answer.
  let { before, atOnce, seen } = await edit(11, true);
  assert.deepEqual(atOnce, { busy: 'false', version: before }, 'the edit alone renders nothing');
  const busy = seen.find((s) => s.busy === 'true');
  assert.ok(busy && busy.at >= HOLD_MS - 5, JSON.stringify(seen));
  assert.ok(seen.indexOf(busy) === seen.findIndex((s) => s.version !== before), `busy as the new version appears: ${JSON.stringify(seen)}`);
  group.topics.t0 = 11;
  shown = group.expected(shown);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown);

  // As the workers answer: the edit appears with its answer, or busy if that took HOLD_MS.
  ({ before, atOnce, seen } = await edit(10, false));
  assert.deepEqual(atOnce, { busy: 'false', version: before }, 'the edit alone renders nothing');
  const first = seen.find((s) => s.version !== before);
  assert.ok(first.busy === 'false' ? first.shown === first.version : first.at >= HOLD_MS - 5, JSON.stringify(seen));
  group.topics.t0 = 10;
  shown = group.expected(shown);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the warm-up\'s answer renders no component (render counts of a debug build)', async (t) => {
  const { page } = await openStartingGroup(env, recordMessages);
  await page.waitForFunction((v) => window.__answers.includes(v), WARM_UP, { timeout: 10_000 });
  const before = await page.evaluate(() => window.__rendersAtWarmUp);
  if (Object.keys(before).length === 0) {
    t.skip('render counts exist in debug builds only: trunk build --dist DIR, then PLAYGROUND_DIST=DIR');
    await page.close();
    return;
  }
  // Handled (a message task, then its microtasks) and two frames later: not one render more.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const after = await renderCounts(page);
  assert.deepEqual(after, before);
  await page.close();
});

test('an answer renders the results region alone: no editor renders for it (render counts of a debug build)', async (t) => {
  const { page } = await openHoldingAnswers();
  const counts = () => renderCounts(page);
  if (Object.keys(await counts()).length === 0) {
    t.skip('render counts exist in debug builds only: trunk build --dist DIR, then PLAYGROUND_DIST=DIR');
    await page.close();
    return;
  }
  // The edit rendered busy (its answer held back past HOLD_MS), then the answer alone.
  await page.evaluate(`(async () => {
    window.__holdAnswers = true;
    ${typedCount('t1', 11)}
    const results = document.querySelector('.results');
    while (results.getAttribute('aria-busy') !== 'true') await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  })()`);
  const before = await counts();
  await page.evaluate(() => window.__releaseAnswers());
  await resultsShown(page);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const after = await counts();
  const changed = Object.fromEntries(Object.keys(after).map((k) => [k.replace(/^renders/, ''), Number(after[k]) - Number(before[k] ?? 0)]));
  t.diagnostic(`the answer: ${JSON.stringify(changed)}`);
  assert.ok(changed.Strategypanel > 0, 'the panels render the answer');
  for (const editor of ['Topicseditor', 'Consumerseditor', 'Weightseditor', 'Intro', 'Topicrow', 'Consumerrow', 'Textfield']) {
    assert.equal(changed[editor] ?? 0, 0, `${editor}: ${JSON.stringify(changed)}`);
  }
  await page.close();
});

/** The compositing layers of `page` and why each is one (CDP LayerTree), once a frame is drawn. */
async function layers(page) {
  const cdp = await page.context().newCDPSession(page);
  let tree = [];
  cdp.on('LayerTree.layerTreeDidChange', (e) => (tree = e.layers ?? tree));
  await cdp.send('LayerTree.enable');
  // Changes somewhere else, so that frames are drawn and the tree sent.
  for (let i = 0; i < 50 && tree.length === 0; i++) {
    await page.evaluate(() => (document.body.dataset.frame = String(Math.random())));
    await page.waitForTimeout(100);
  }
  const reasons = [];
  for (const layer of tree) {
    const why = await cdp.send('LayerTree.compositingReasons', { layerId: layer.layerId }).catch(() => ({}));
    reasons.push((why.compositingReasonIds ?? why.compositingReasons ?? []).map((r) => r.toLowerCase()));
  }
  await cdp.detach();
  return reasons;
}

test('typing into a count: the caret\'s layer gives nothing below it a layer of its own', async () => {
  // Chromium composites a text field's caret; every later paint chunk overlapping it (or one that
  // does) then needs a layer, and each frame's layerization tests every chunk against them. A
  // focused field is its own stacking context (style.css, "Typing"), which keeps that inside it.
  const topics = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`t${i}`, 12]));
  const members = Array.from({ length: 4 }, (_, i) => ({ id: `C${i}`, topics: Object.keys(topics) }));
  const group = new Group(topics, members);
  const { page, errors } = await openPlayground(env, '#' + link(group.scenarioText(), env.url).split('#')[1]);
  await page.evaluate(() => {
    const field = [...document.querySelectorAll('label.field')].find((l) => l.querySelector('.label').textContent === 'Partitions of t1');
    field.querySelector('input').focus();
    field.querySelector('input').select();
  });
  await page.keyboard.type('13');
  const reasons = await layers(page);
  assert.ok(reasons.some((r) => r.includes('caret')), `a caret layer: ${JSON.stringify(reasons)}`);
  // The field's own chunks painted over its caret, and the sticky header over everything: no
  // row below the field.
  const overlaps = reasons.filter((r) => r.includes('overlap')).length;
  assert.ok(overlaps <= 2, `${overlaps} layers for overlap: ${JSON.stringify(reasons)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

/** The link's hash of measure.mjs's 1,000 partitions × 50 consumers: ten topics of 100, odd consumers on the first five. */
function thousandByFifty() {
  const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
  const text = JSON.stringify({
    version: 1,
    title: '1000 partitions, 50 consumers',
    topics: names.map((name) => ({ name, partitions: 100 })),
    consumers: Array.from({ length: 50 }, (_, i) => ({ id: `C${i}`, topics: i % 2 ? names.slice(0, 5) : names })),
  });
  return '#' + link(text, env.url).split('#')[1];
}

test("a big group's member lists out of view are not rendered until scrolled to: their rows stay in the DOM, their boxes keep their height", async () => {
  // 1,000 partitions × 50 consumers on a 1,400 × 900 window (measure.mjs's typed row): the lower
  // two panels' lists are out of view, and an answer lays out and paints the upper two only
  // (style.css, "An answer's frame").
  const { page, errors } = await openPlayground(env, thousandByFifty());
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForSelector('section[data-strategy="cooperative-sticky"] .member-scroll [data-member]', { timeout: 30_000 });
  const lists = () =>
    page.$$eval('section.panel .member-scroll', (scrollers) => {
      const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return frames().then(() =>
        scrollers.map((s) => {
          const box = s.getBoundingClientRect();
          const row = s.querySelector('[data-member]');
          return {
            strategy: s.closest('section.panel').dataset.strategy,
            top: box.top,
            height: box.height,
            panelHeight: s.closest('section.panel').getBoundingClientRect().height,
            rows: s.querySelectorAll('[data-member]').length,
            rendered: row.checkVisibility({ contentVisibilityAuto: true }),
          };
        }),
      );
    });
  const before = await lists();
  assert.equal(before.length, 4);
  for (const list of before) {
    assert.ok(list.rows >= 10, `${list.strategy}: its rows in the DOM (${list.rows})`);
    assert.equal(list.height, 440, `${list.strategy}: the list's box is members::VIEW_PX high, rendered or not`);
    if (list.top < 900) assert.ok(list.rendered, `${list.strategy}: a list in view is rendered`);
  }
  const skipped = before.filter((l) => !l.rendered);
  assert.ok(skipped.length >= 1, `a list out of view is skipped: ${JSON.stringify(before)}`);
  assert.ok(skipped.every((l) => l.top >= 900), `only lists out of view are skipped: ${JSON.stringify(before)}`);

  // Scrolled into view, the last list renders, and nothing around it moves.
  const last = skipped.at(-1).strategy;
  await page.$eval(`section[data-strategy="${last}"] .member-scroll`, (s) => s.scrollIntoView({ block: 'center' }));
  const after = (await lists()).find((l) => l.strategy === last);
  assert.ok(after.rendered, `${last}: rendered once in view`);
  assert.equal(after.height, 440);
  assert.equal(after.panelHeight, skipped.at(-1).panelHeight, `${last}: its panel's height unchanged`);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a big group's panels keep their height from answer to answer: an answer moves nothing below them", async () => {
  // measure.mjs's typed edits (a topic's count 99 and 100, t0 and t1 in turn) at 1,000 × 50: the
  // "most loaded" figure comes and goes, "largest moves" takes 1 to 3 lines, the rounds 2 or 3; the
  // panels reserve those lines (style.css, "An answer's frame, still"), so each panel's height and
  // the configuration section's place are the same after every answer.
  const { page, errors } = await openPlayground(env, thousandByFifty());
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForSelector('section[data-strategy="cooperative-sticky"] .member-scroll [data-member]', { timeout: 30_000 });
  const boxes = () =>
    page.evaluate(
      () =>
        new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))).then(() => ({
          panels: [...document.querySelectorAll('section.panel')].map((p) => `${p.dataset.strategy} ${p.getBoundingClientRect().height}`),
          config: document.querySelector('section.config').getBoundingClientRect().top + window.scrollY,
          steady: document.querySelectorAll('section.panel.steady').length,
        })),
    );
  const seen = [];
  for (let k = 0; k < 8; k++) {
    const topic = k % 2 ? 't1' : 't0';
    const n = Math.floor(k / 2) % 2 ? 100 : 99;
    const before = await page.$eval('.results', (r) => Number(r.dataset.version));
    await page.evaluate(typedCount(topic, n));
    await shownAbove(page, before);
    seen.push({ edit: `${topic} ${n}`, ...(await boxes()) });
  }
  for (const s of seen) {
    assert.equal(s.steady, 4, `${s.edit}: every panel keeps its lines`);
    assert.deepEqual([s.panels, s.config], [seen[0].panels, seen[0].config], `after ${s.edit}: ${JSON.stringify(seen)}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('an answer is painted whole: a page too slow to render it within one of Yew\'s 16 ms slices still renders every panel in one task', async () => {
  // Yew's scheduler yields to the browser (a `setTimeout`) once it has run for 16 ms, and Yew
  // 0.23.0 could yield with a child component's props update still queued: the browser then painted
  // the results region with its version and some panels still showing the answer before, and
  // rendered the rest after that frame (traced at 1,000 × 50 on the shared machine; crates/vendor/README.md).
  // The page's CPU slowed 8 times makes every answer's render run past those 16 ms.
  const { page, errors } = await openPlayground(env, thousandByFifty());
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForSelector('section[data-strategy="cooperative-sticky"] .member-scroll [data-member]', { timeout: 30_000 });
  await resultsShown(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  for (let k = 0; k < 4; k++) {
    const topic = k % 2 ? 't1' : 't0';
    const n = Math.floor(k / 2) % 2 ? 100 : 99;
    // Each task's changes to the region reach a MutationObserver as one batch: the batch that
    // marks the answer shown, and whatever changes the panels after it.
    const batches = await page.evaluate(async (edit) => {
      const results = document.querySelector('.results');
      const before = results.dataset.version;
      const batches = [];
      const observer = new MutationObserver((records) =>
        batches.push({
          shown: results.dataset.shown !== before && results.dataset.shown === results.dataset.version,
          panels: records.filter((r) => r.target.closest?.('.panels') ?? r.target.parentElement?.closest('.panels')).length,
        }),
      );
      observer.observe(results, { subtree: true, attributes: true, childList: true, characterData: true });
      new Function(edit)();
      while (results.dataset.version === before || results.dataset.shown !== results.dataset.version) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 1000));
      observer.disconnect();
      return batches;
    }, typedCount(topic, n));
    const shownAt = batches.findIndex((b) => b.shown);
    assert.ok(shownAt >= 0, JSON.stringify(batches));
    const later = batches.slice(shownAt + 1).filter((b) => b.panels > 0);
    assert.deepEqual(later, [], `${topic} ${n}: panels changed after the answer was marked shown: ${JSON.stringify(batches)}`);
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  assert.deepEqual(errors, []);
  await page.close();
});

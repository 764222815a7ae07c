// The step-through walkthrough: roundrobin on "Roundrobin with uneven subscriptions", step by step,
// against `kap explain --json` (each step's sentence, and the assignment so far rebuilt from the
// changes each step carries).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, panels, panelSelector, useBrowser } from './browser.mjs';
import { assignmentChips, explain, kap, link } from './kap.mjs';

const env = useBrowser();

const PANEL = panelSelector('roundrobin');

/** The walkthrough on screen: its step, sentence, position text and each member's chips. */
const walkthrough = (page, panel = PANEL) =>
  page.$eval(`${panel} .explain`, (e) => ({
    step: Number(e.dataset.step),
    sentence: e.querySelector('.sentence').textContent,
    position: e.querySelector('.position').textContent,
    members: Object.fromEntries(
      [...e.querySelectorAll('[data-explain-member]')].map((m) => [
        m.dataset.explainMember,
        [...m.querySelectorAll('.chips .chip')].map((c) => c.textContent),
      ]),
    ),
  }));

const atStep = (page, n, panel = PANEL) =>
  page.waitForSelector(`${panel} .explain[data-step="${n}"]`, { timeout: 5_000 }).catch(() => {});

test('roundrobin walkthrough: every step as kap explains it, ending on the panel\'s assignment', async () => {
  const { page, errors } = await openPlayground(env);
  const { steps, assignment } = explain(kap(['preset', 'roundrobin-uneven']), 'roundrobin');
  assert.equal(steps.length, 14);
  await page.selectOption('header select', 'roundrobin-uneven');
  await page.waitForSelector(`${PANEL} [data-member="C2"] [data-partition="t2-2"]`);
  const panel = (await panels(page)).roundrobin;
  assert.deepEqual(panel, { C0: ['t0-0'], C1: ['t1-0'], C2: ['t1-1', 't2-0', 't2-1', 't2-2'] });
  assert.deepEqual(assignmentChips(assignment), panel);
  assert.deepEqual(assignmentChips(steps.at(-1).soFar), panel);

  await page.click(`${PANEL} button.explain-toggle:text-is("Explain")`);
  await atStep(page, 1);
  const button = (name) => page.locator(`${PANEL} .controls button:text-is("${name}")`);
  assert.equal(await button('Previous').isDisabled(), true);
  assert.equal(await page.locator(`${PANEL} .controls button[aria-label="first step"]`).isDisabled(), true);

  const seen = [];
  for (let n = 1; n <= steps.length; n++) {
    if (n > 1) {
      await button('Next').click();
      await atStep(page, n);
    }
    const w = await walkthrough(page);
    assert.equal(w.step, n);
    assert.equal(w.position, `step ${n} of ${steps.length}`);
    assert.equal(w.sentence, steps[n - 1].text, `step ${n}`);
    assert.deepEqual(w.members, assignmentChips(steps[n - 1].soFar), `step ${n}: the assignment so far`);
    seen.push(w.sentence);
  }
  assert.ok(seen.includes('Try t2-0 on C0: no, it does not subscribe to the topic; next.'));
  assert.equal(seen[4], 'Give t1-1 to C2.');
  // The last step: nothing further, and exactly what the panel shows.
  assert.equal(await button('Next').isDisabled(), true);
  assert.deepEqual((await walkthrough(page)).members, panel);

  await button('Previous').click();
  await atStep(page, steps.length - 1);
  assert.equal((await walkthrough(page)).sentence, steps.at(-2).text);
  await page.click(`${PANEL} .controls button[aria-label="first step"]`);
  await atStep(page, 1);
  assert.equal((await walkthrough(page)).sentence, steps[0].text);

  // Play steps on by itself (one step every 700 ms) until paused.
  await button('Play').click();
  await atStep(page, 3);
  await button('Pause').click();
  const paused = (await walkthrough(page)).step;
  assert.ok(paused >= 3 && paused < steps.length, `paused at ${paused}`);
  await button('Play').waitFor();

  // Closing it brings the panel's chips back.
  await page.click(`${PANEL} button.explain-toggle:text-is("Close walkthrough")`);
  await page.waitForSelector(`${PANEL} [data-member]`);
  assert.deepEqual((await panels(page)).roundrobin, panel);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the broker\'s uniform assignor is walked through as kap explains it, from each member\'s current target', async () => {
  const SERVER = 'section[data-server-assignor="uniform"]';
  const text = kap(['preset', 'consumer-protocol-uniform']);
  const { steps, assignment } = explain(text, 'uniform');
  assert.ok(steps.length > 3, `${steps.length} steps`);
  const { page, errors } = await openPlayground(env, link(text, env.url).slice(env.url.length));
  await page.waitForSelector(`${SERVER} [data-member]`);
  await page.click(`${SERVER} button.explain-toggle:text-is("Explain")`);
  await atStep(page, 1, SERVER);
  for (let n = 1; n <= steps.length; n++) {
    if (n > 1) {
      await page.locator(`${SERVER} .controls button:text-is("Next")`).click();
      await atStep(page, n, SERVER);
    }
    const w = await walkthrough(page, SERVER);
    assert.equal(w.position, `step ${n} of ${steps.length}`);
    assert.equal(w.sentence, steps[n - 1].text, `step ${n}`);
    assert.deepEqual(w.members, assignmentChips(steps[n - 1].soFar), `step ${n}: the assignment so far`);
  }
  assert.deepEqual((await walkthrough(page, SERVER)).members, assignmentChips(assignment));
  assert.deepEqual(errors, []);
  await page.close();
});

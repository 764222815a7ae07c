// A count typed is computed ahead (issue 9; state::Action::Draft): while a person types digits into
// a partition count, the page hands the draft's edit to the workers, and the Enter that applies it
// renders the edit with that answer in the key's own task, asking the workers for nothing more; the
// answer is kap batch's. A draft dropped with Escape, or followed by another edit, leaves nothing
// behind: its answer is never painted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { panels, renderCounts, resultsShown, useBrowser, waitForPanels } from './browser.mjs';
import { openStartingGroup, recordMessages } from './messages.mjs';

const env = useBrowser();

/** The starting group opened, its first answer shown and the warm-up done. */
async function open() {
  const { group, page, errors } = await openStartingGroup(env, recordMessages);
  const shown = group.expected(null);
  await waitForPanels(page, shown);
  await page.waitForTimeout(500);
  return { group, page, errors, shown };
}

/** Focuses topic `topic`'s partition count with its text selected, as a click into it and a select. */
const focusCount = (page, topic) =>
  page.evaluate((label) => {
    const field = [...document.querySelectorAll('label.field')].find((l) => l.querySelector('.label').textContent === label);
    const input = field.querySelector('input');
    input.focus();
    input.select();
  }, `Partitions of ${topic}`);

/** The results region's version on screen, the version its answer is of, and whether it is busy. */
const results = (page) =>
  page.$eval('.results', (r) => ({ version: r.dataset.version, shown: r.dataset.shown, busy: r.getAttribute('aria-busy') }));

/**
 * Waits until the page holds version `v`'s answer: every compute worker has answered its share
 * (`work::Gather`; the lead's alone is not the answer yet).
 */
const answerIn = (page, v) =>
  page.waitForFunction((v) => window.__answeredBy.length > 0 && window.__answeredBy.every((versions) => versions.includes(v)), v, {
    timeout: 10_000,
  });

/** Waits until the lead worker has answered `count` versions in all. */
const answered = (page, count) => page.waitForFunction((n) => window.__answers.length >= n, count, { timeout: 10_000 });

test('digits typed are computed ahead; Enter renders their answer in its own task, asking for nothing more; it is kap batch\'s', async () => {
  const { group, page, errors } = await open();
  let shown = group.expected(null);
  for (const [topic, digits] of [['t0', '15'], ['t1', '7'], ['t0', '9']]) {
    const before = await results(page);
    const answers = await page.evaluate(() => window.__answers.length);
    await focusCount(page, topic);
    await page.keyboard.type(digits);
    // Each digit a draft, each computed (a newer one replaces one still waiting): the last is answered.
    await answered(page, answers + 1);
    const draft = await page.evaluate(() => window.__computes.at(-1).at(-1));
    await answerIn(page, draft);
    assert.deepEqual(await results(page), before, 'typing renders nothing');
    const computes = await page.evaluate(() => window.__computes.length);
    // As Enter's keydown reaches the page: the results region in the next animation frame, before its paint.
    await page.evaluate(() => {
      window.__atNextFrame = new Promise((resolve) => {
        const onKey = (e) => {
          if (e.key !== 'Enter') return;
          document.removeEventListener('keydown', onKey, { capture: true });
          requestAnimationFrame(() => {
            const r = document.querySelector('.results');
            resolve({ version: r.dataset.version, shown: r.dataset.shown, busy: r.getAttribute('aria-busy') });
          });
        };
        document.addEventListener('keydown', onKey, { capture: true });
      });
    });
    await page.keyboard.press('Enter');
    const atNextFrame = await page.evaluate(() => window.__atNextFrame);
    assert.deepEqual(atNextFrame, { version: draft, shown: draft, busy: 'false' }, `${topic} = ${digits}: the draft's answer, in the frame after Enter`);
    assert.equal(await page.evaluate(() => window.__computes.length), computes, 'nothing more asked of the workers');
    group.topics[topic] = Number(digits);
    shown = group.expected(shown);
    await waitForPanels(page, shown);
    assert.deepEqual(await panels(page), shown, `${topic} = ${digits}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a draft dropped with Escape leaves nothing behind; the same count typed again is its own version, kap batch\'s', async () => {
  const { group, page, errors, shown } = await open();
  const before = await results(page);
  await focusCount(page, 't2');
  await page.keyboard.type('5');
  const draft = await page.evaluate(() => window.__computes.at(-1).at(-1));
  await answerIn(page, draft);
  await page.keyboard.press('Escape');
  assert.equal(await page.$eval('label.field:has(input:focus) input', (i) => i.value), '12', 'the committed count again');
  await page.waitForTimeout(800); // longer than fields::SETTLE_MS: nothing is applied
  assert.deepEqual(await results(page), before, 'nothing rendered');
  assert.deepEqual(await panels(page), shown);

  await page.keyboard.press('Control+A');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  await resultsShown(page);
  const after = await results(page);
  assert.ok(BigInt(after.version) > BigInt(draft), `a version above the dropped draft's (${draft}): ${after.version}`);
  group.topics.t2 = 5;
  const expected = group.expected(shown);
  await waitForPanels(page, expected);
  assert.deepEqual(await panels(page), expected);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a draft followed by a different edit, or by a newer draft, is never painted', async () => {
  const { group, page, errors } = await open();
  let shown = group.expected(null);
  // t0's draft, then t1 stepped with its + button (clicked from script: the focus stays in t0).
  await focusCount(page, 't0');
  await page.keyboard.type('3');
  const draft = await page.evaluate(() => window.__computes.at(-1).at(-1));
  await answerIn(page, draft);
  await page.evaluate(() => document.querySelector('button[aria-label="Partitions of t1 plus one"]').click());
  // t0's draft dropped at once, before its field applies it on a pause (fields::SETTLE_MS).
  await page.keyboard.press('Escape');
  await resultsShown(page);
  const stepped = await results(page);
  assert.ok(BigInt(stepped.version) > BigInt(draft), `t1's edit has a version of its own: ${stepped.version} after ${draft}`);
  group.topics.t1 = 13;
  shown = group.expected(shown);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 't1 stepped, t0 as it was');

  // A draft, then a newer one in the same field: Enter applies the newer.
  await focusCount(page, 't0');
  await page.keyboard.type('3');
  const older = await page.evaluate(() => window.__computes.at(-1).at(-1));
  await answerIn(page, older);
  await page.keyboard.press('Backspace');
  await page.keyboard.type('4');
  await page.keyboard.press('Enter');
  await resultsShown(page);
  assert.ok(BigInt((await results(page)).version) > BigInt(older));
  group.topics.t0 = 4;
  shown = group.expected(shown);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 't0 = 4, not 3');
  assert.deepEqual(errors, []);
  await page.close();
});

test('typing a count renders nothing but its field, its draft\'s answer nothing at all (render counts of a debug build)', async (t) => {
  const { page, errors } = await open();
  const counts = () => renderCounts(page);
  if (Object.keys(await counts()).length === 0) {
    t.skip('render counts exist in debug builds only: trunk build --dist DIR, then PLAYGROUND_DIST=DIR');
    await page.close();
    return;
  }
  const before = await counts();
  await focusCount(page, 't0');
  await page.keyboard.type('15');
  const draft = await page.evaluate(() => window.__computes.at(-1).at(-1));
  await answerIn(page, draft);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const after = await counts();
  const changed = Object.fromEntries(
    Object.keys(after)
      .map((k) => [k.replace(/^renders/, ''), Number(after[k]) - Number(before[k] ?? 0)])
      .filter(([, n]) => n > 0),
  );
  t.diagnostic(`typing two digits: ${JSON.stringify(changed)}`);
  assert.deepEqual(Object.keys(changed), ['Textfield'], JSON.stringify(changed));
  assert.equal(changed.Textfield, 2, 'the field, once a digit');
  await page.keyboard.press('Escape');
  assert.deepEqual(errors, []);
  await page.close();
});

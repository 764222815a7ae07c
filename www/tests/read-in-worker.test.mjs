// Issue 9, stop 21: the page reads no scenario file; the lead compute worker reads the tab's link,
// its saved copy, the presets, a kept copy switched back to, and the scenario comes to the page in
// the binary form (`scenario::packed`). A group in format 2 (consumers sharing one topic list; the
// 100,000-partition group's previous assignment as runs is big-history.test.mjs's) opened from its link, from the copy the page saved of it, and again
// from Recent after a preset replaced it, shows every time what `kap show` shows of the file; the
// preset shows what `kap show` shows of `kap preset`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectErrors, panels, resultsShown, useBrowser, waitForPanels } from './browser.mjs';
import { kap, link, show, shownChips } from './kap.mjs';

const env = useBrowser();

/** 20 topics × 10 partitions, 120 consumers on all of them (2,400 names: format 2). */
function largeScenario() {
  const names = Array.from({ length: 20 }, (_, i) => `t${i}`);
  return JSON.stringify({
    version: 1,
    title: 'Shared lists',
    topics: names.map((name) => ({ name, partitions: 10 })),
    consumers: Array.from({ length: 120 }, (_, i) => ({ id: `C${i}`, topics: names })),
  });
}

const opened = async (page) => {
  await page.waitForSelector('section[data-strategy]', { timeout: 30_000 });
  await resultsShown(page);
};

test('a format 2 group opens from its link, its saved copy and Recent as kap shows it; a preset as kap shows it', async () => {
  const text = largeScenario();
  const url = link(text, env.url);
  assert.ok(url.includes('#v2.'), 'written in format 2');
  const expected = shownChips(show(text));
  const page = await env.browser.newPage();
  const errors = collectErrors(page);

  await page.goto(url);
  await opened(page);
  await waitForPanels(page, expected);
  assert.deepEqual(await panels(page), expected, 'from its link');
  await page.waitForFunction(() => localStorage.getItem('kafka-assignor-playground/scenario')?.includes('Shared lists'));

  await page.goto('about:blank');
  await page.goto(env.url);
  await opened(page);
  await waitForPanels(page, expected);
  assert.deepEqual(await panels(page), expected, 'from its saved copy');
  assert.equal(await page.locator('.banner[role=alert]').count(), 0);

  await page.selectOption('header select', 'sticky-crash-c1');
  const preset = shownChips(show(kap(['preset', 'sticky-crash-c1'])));
  await waitForPanels(page, preset);
  assert.deepEqual(await panels(page), preset, 'a preset');
  // Saved, then the group it replaced is kept: back from Recent.
  await page.waitForFunction(() => /Recent \([1-9]/.test(document.querySelector('.recent button')?.textContent ?? ''), null, { timeout: 10_000 });
  await page.locator('.recent > button').click();
  await page.locator('[role=dialog][aria-label="Recent scenarios"] .recent-entry', { hasText: 'Shared lists' }).click();
  await waitForPanels(page, expected);
  assert.deepEqual(await panels(page), expected, 'from Recent');
  assert.deepEqual(errors, []);
  await page.close();
});

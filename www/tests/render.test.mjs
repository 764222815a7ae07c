// Issue 9, the page's thread: what keeps an edit's way to the screen short. A group of hundreds of
// consumers shows 200 rows of the consumers editor at a time, every row reachable from the keyboard
// through "Show more"; the link and the saved work are written once the edit's answer is painted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { field, focusedName, openPlayground, resultsShown, useBrowser, waitForSaved } from './browser.mjs';
import { bigGroup } from './group.mjs';
import { link } from './kap.mjs';
import { mountRows } from './rows.mjs';

const env = useBrowser();

const rows = (page) => page.$$eval('[data-consumer]', (rows) => rows.map((r) => r.dataset.consumer));

test('450 consumers: 200 rows at a time, the rest one "Show more" away from the keyboard', async () => {
  const url = link(bigGroup(3, 450), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  const editor = page.locator('section.consumers-editor');
  const ids = (from, to) => Array.from({ length: to - from }, (_, i) => `consumer-${from + i}`);
  // The rows near the window at the opening, the others as the page scrolls toward them.
  assert.deepEqual(await rows(page), ids(0, 10));
  await mountRows(page, 200);
  assert.deepEqual(await rows(page), ids(0, 200));
  assert.equal(await editor.locator('.more-consumers .hint').textContent(), '200 of 450 consumers shown.');
  // From the last row's last field, Tab reaches "Show 200 more"; Enter shows them, the focus stays.
  await field(page, 'Pattern subscriptions of consumer-199').focus();
  await page.keyboard.press('Tab');
  assert.equal(await focusedName(page), 'Show 200 more');
  await page.keyboard.press('Enter');
  await mountRows(page, 400);
  assert.deepEqual(await rows(page), ids(0, 400));
  assert.equal(await focusedName(page), 'Show 50 more');
  await page.keyboard.press('Enter');
  await mountRows(page, 450);
  assert.deepEqual(await rows(page), ids(0, 450));
  assert.equal(await editor.locator('.more-consumers').count(), 0, 'nothing more to show');
  // A row beyond the first 200 edits like any other.
  await page.getByRole('button', { name: 'consumer-420 crashes or leaves', exact: true }).click();
  await page.waitForFunction(() => !document.querySelector('[data-consumer="consumer-420"]'));
  await resultsShown(page);
  assert.equal((await rows(page)).length, 449);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the link and the saved work follow an edit, written once its answer is painted', async () => {
  const url = link(bigGroup(3, 4), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  await waitForSaved(page, { 'orders-0': 1, 'orders-1': 2, 'orders-2': 3 });
  const before = await page.evaluate(() => location.hash);
  const count = field(page, 'Partitions of orders-0');
  await count.fill('7');
  await count.press('Enter');
  // Frame by frame: the first frame that finds the edit saved finds its answer painted.
  const busyWhenSaved = await page.waitForFunction(
    () => {
      const saved = JSON.parse(localStorage.getItem('kafka-assignor-playground/scenario') ?? '{}');
      if (saved.topics?.[0]?.partitions !== 7) return false;
      return document.querySelector('.results').getAttribute('aria-busy');
    },
    null,
    { polling: 'raf' },
  );
  assert.equal(await busyWhenSaved.jsonValue(), 'false');
  await waitForSaved(page, { 'orders-0': 7, 'orders-1': 2, 'orders-2': 3 });
  assert.notEqual(await page.evaluate(() => location.hash), before, 'the link follows');
  assert.deepEqual(errors, []);
  await page.close();
});

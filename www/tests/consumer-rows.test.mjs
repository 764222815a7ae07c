// Issue 9, the opening's longest tasks: the consumers editor mounts the rows near the window at the
// opening and the others as the page scrolls (or the keyboard tabs) toward them
// (`ui::reveal::use_reach`). A row once mounted stays mounted: its element, its focus and what is
// typed in it are never lost, not even when rows are inserted before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, resultsShown, useBrowser } from './browser.mjs';
import { bigGroup } from './group.mjs';
import { link } from './kap.mjs';
import { mountRows } from './rows.mjs';

const env = useBrowser();

const rows = (page) => page.$$eval('[data-consumer]', (rows) => rows.map((r) => r.dataset.consumer));
const ids = (from, to) => Array.from({ length: to - from }, (_, i) => `consumer-${from + i}`);

/** Opens a group of 3 topics and 60 consumers, counting the consumer rows taken out of the page. */
async function openSixty() {
  const url = link(bigGroup(3, 60), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  await page.evaluate(() => {
    window.__rowsRemoved = 0;
    new MutationObserver((records) => {
      for (const r of records) window.__rowsRemoved += [...r.removedNodes].filter((n) => n.nodeType === 1 && n.matches('li.consumer')).length;
    }).observe(document.querySelector('ol.consumers'), { childList: true });
  });
  return { page, errors };
}

/** The consumer row the focus is in, or null. */
const focusedRow = (page) => page.evaluate(() => document.activeElement?.closest('[data-consumer]')?.dataset.consumer ?? null);

test('the opening mounts ten consumer rows of 60; scrolling toward the end mounts the others, a slice a frame, and keeps the focus and what was typed', async () => {
  const { page, errors } = await openSixty();
  assert.deepEqual(await rows(page), ids(0, 10));
  assert.equal(await page.locator('section.consumers-editor .rows-ahead').count(), 1);
  // Every row of the window is still there for the hint: no "Show more" below 200 consumers.
  assert.equal(await page.locator('section.consumers-editor .more-consumers').count(), 0);
  // What a person has started typing in a mounted row stays while the others come.
  await page.$eval('[data-consumer="consumer-2"]', (row) => (row.dataset.marked = 'yes'));
  const rack = page.getByRole('textbox', { name: 'client.rack of consumer-2', exact: true });
  await rack.focus();
  await page.keyboard.type('rack-');
  await page.evaluate(() => {
    window.__slices = [];
    let count = document.querySelectorAll('li.consumer').length;
    const frame = () => {
      const now = document.querySelectorAll('li.consumer').length;
      if (now !== count) window.__slices.push(now - count);
      count = now;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await mountRows(page, 60);
  assert.deepEqual(await rows(page), ids(0, 60));
  assert.equal(await page.locator('section.consumers-editor .rows-ahead').count(), 0, 'nothing left to mount');
  const slices = await page.evaluate(() => window.__slices);
  assert.ok(slices.every((n) => n > 0 && n <= 6), `six rows a frame at most: ${slices}`);
  assert.equal(await page.evaluate(() => window.__rowsRemoved), 0, 'no row taken out');
  assert.equal(await page.$eval('[data-consumer="consumer-2"]', (row) => row.dataset.marked), 'yes', 'the same row');
  assert.equal(await focusedRow(page), 'consumer-2');
  assert.equal(await rack.inputValue(), 'rack-');
  assert.deepEqual(errors, []);
  await page.close();
});

test("the keyboard tabs on from the last row mounted: the rows ahead are mounted as the focus brings it into view", async () => {
  const { page, errors } = await openSixty();
  assert.equal((await rows(page)).length, 10);
  await page.getByRole('textbox', { name: 'Pattern subscriptions of consumer-9', exact: true }).focus();
  // The focus scrolled that row into view: the next rows come before the next key.
  await page.waitForFunction(() => document.querySelectorAll('li.consumer').length > 10);
  await page.keyboard.press('Tab');
  assert.equal(await focusedRow(page), 'consumer-10');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a consumer duplicated above the last row mounted keeps that row mounted; one added is shown and brought into view', async () => {
  const { page, errors } = await openSixty();
  await page.$eval('[data-consumer="consumer-9"]', (row) => (row.dataset.marked = 'yes'));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Duplicate consumer-3', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('li.consumer').length === 11);
  await resultsShown(page);
  const shown = await rows(page);
  assert.deepEqual(shown.slice(0, 4), ids(0, 4));
  assert.deepEqual(shown.slice(5), ids(4, 10), 'consumer-9 still mounted');
  assert.equal(await page.$eval('[data-consumer="consumer-9"]', (row) => row.dataset.marked), 'yes', 'the same row');
  assert.equal(await page.evaluate(() => window.__rowsRemoved), 0);

  // Add consumer: the newcomer goes after the 61 others. It is shown at once, right after the rows
  // mounted, and brought into view; that brings the list's end near, so the rows before it are
  // mounted too, a slice a frame, each time bringing it back into view, until it is in its place.
  await page.getByRole('button', { name: 'Add consumer', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('li.consumer').length === 62, null, { timeout: 10_000 }).catch(async (e) => assert.fail(`${e.message}: ${await rows(page)}`));
  await resultsShown(page);
  const all = await rows(page);
  const added = all.at(-1);
  assert.ok(!/^consumer-\d+$/.test(added), added);
  assert.deepEqual(all.slice(0, -1).filter((id) => id !== 'consumer-3-0'), ids(0, 60));
  // In view: below the sticky header, its top above the window's bottom (what else the answer
  // brings can shift it by a few pixels after it was brought there).
  const where = await page.$eval(`[data-consumer="${added}"]`, (row) => {
    const r = row.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, header: document.querySelector('header.top').getBoundingClientRect().bottom, height: window.innerHeight };
  });
  assert.ok(where.top >= where.header && where.top + 60 <= where.height, `in view: ${JSON.stringify(where)}`);
  assert.equal(await page.evaluate(() => window.__rowsRemoved), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

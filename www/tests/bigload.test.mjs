// Issue 9, big groups on the page's thread: the page renders in slices (the consumers editor's rows a
// slice per frame, the results region's panels one per frame, and busy until the last is in), an
// edit's busy state changes the results region's attributes and nothing inside it, and a consumer
// added beyond the 200 rows the consumers editor shows is shown, in view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, resultsShown, STRATEGIES, useBrowser } from './browser.mjs';
import { bigGroup } from './group.mjs';
import { link } from './kap.mjs';
import { mountRows } from './rows.mjs';

const env = useBrowser();

const rows = (page) => page.$$eval('[data-consumer]', (rows) => rows.map((r) => r.dataset.consumer));
const hint = (page) => page.locator('section.consumers-editor .more-consumers .hint').textContent();

/** Whether the consumers editor's row of `id` is rendered and in view: below the sticky header, above the window's bottom. */
const inView = (page, id) =>
  page.$eval(`[data-consumer="${id}"]`, (row) => {
    const r = row.getBoundingClientRect();
    const header = document.querySelector('header.top').getBoundingClientRect().bottom;
    return r.height > 0 && r.top >= header && r.bottom <= window.innerHeight;
  });

/** The group of 10 topics × `partitions` each, `consumers` consumers subscribed to all. */
function tenTopics(partitions, consumers) {
  const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
  return JSON.stringify({
    version: 1,
    title: `${10 * partitions} partitions, ${consumers} consumers`,
    topics: names.map((name) => ({ name, partitions })),
    consumers: Array.from({ length: consumers }, (_, i) => ({ id: `C${i}`, topics: names })),
  });
}

test('a consumer that joins a group of 450 is shown, in view, beyond the 200 rows; so is one added', async () => {
  const url = link(bigGroup(3, 450), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  const ids = (from, to) => Array.from({ length: to - from }, (_, i) => `consumer-${from + i}`);
  await mountRows(page, 200);
  assert.equal(await hint(page), '200 of 450 consumers shown.');

  await page.getByRole('button', { name: 'A consumer joins', exact: true }).click();
  await page.waitForSelector('[data-consumer="C0"]');
  await resultsShown(page);
  assert.deepEqual(await rows(page), [...ids(0, 200), 'C0'], 'the newcomer right after the rows shown');
  assert.ok(await inView(page, 'C0'), 'scrolled into view, not under the sticky header');
  assert.equal(await hint(page), '201 of 451 consumers shown.');
  assert.match(await page.locator('.summary .note').textContent(), /, 451 consumers:/);

  // From the page's top, the editor's own Add consumer: the new row comes into view too.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Add consumer', exact: true }).click();
  await page.waitForSelector('[data-consumer="C1"]');
  await resultsShown(page);
  assert.deepEqual((await rows(page)).slice(199), ['consumer-199', 'C0', 'C1']);
  assert.ok(await inView(page, 'C1'));
  assert.equal(await hint(page), '202 of 452 consumers shown.');

  // "Show more" reaches them in their place; undo takes the last one away.
  await page.getByRole('button', { name: 'Show 200 more', exact: true }).click();
  await mountRows(page, 402);
  assert.deepEqual(await rows(page), [...ids(0, 400), 'C0', 'C1']);
  assert.equal(await hint(page), '402 of 452 consumers shown.');
  await page.getByRole('button', { name: 'Show 50 more', exact: true }).click();
  await mountRows(page, 452);
  assert.deepEqual(await rows(page), [...ids(0, 450), 'C0', 'C1']);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.waitForFunction(() => !document.querySelector('[data-consumer="C1"]'));
  await resultsShown(page);
  assert.deepEqual(await rows(page), [...ids(0, 450), 'C0']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a big group opens in slices: rows a slice per frame, panels one per frame, busy until the last is in', async () => {
  const page = await env.browser.newPage();
  // Every batch of consumer rows and of panels added to the page, as the mutations come.
  await page.addInitScript(() => {
    window.__added = { rows: [], panels: [] };
    new MutationObserver((records) => {
      // An element added with its children comes in one batch with them: each counted once.
      const rows = new Set();
      const panels = new Set();
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node.nodeType !== 1) continue;
          for (const row of [node, ...node.querySelectorAll('li.consumer')].filter((n) => n.matches('li.consumer'))) rows.add(row);
          for (const panel of [node, ...node.querySelectorAll('section[data-strategy]')].filter((n) => n.matches('section[data-strategy]'))) panels.add(panel);
        }
      }
      if (rows.size) window.__added.rows.push(rows.size);
      if (panels.size) window.__added.panels.push(panels.size);
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(link(tenTopics(2_000, 500), env.url));
  await resultsShown(page, 120_000);
  // Not busy before every panel is in.
  assert.deepEqual(await page.$$eval('section[data-strategy]', (s) => s.map((p) => p.dataset.strategy)), STRATEGIES);
  // The opening mounts the rows near the window (5, then 5); the others as the page scrolls to them.
  assert.deepEqual((await page.evaluate(() => window.__added)).rows, [5, 5]);
  await mountRows(page, 200);
  const added = await page.evaluate(() => window.__added);
  assert.equal(added.rows.reduce((a, b) => a + b, 0), 200);
  assert.ok(added.rows.length >= 8 && Math.max(...added.rows) <= 25, `rows added in slices: ${added.rows}`);
  assert.deepEqual(added.panels, [1, 1, 1, 1], 'one panel at a time');
  assert.ok(await page.$('section.config[aria-label="Configuration"]'));
  await page.close();
});

test("an edit's busy state changes the results region's attributes, nothing inside it", async () => {
  const page = await env.browser.newPage();
  await page.goto(link(tenTopics(2_000, 300), env.url));
  await resultsShown(page, 120_000);
  await mountRows(page, 200);
  const touched = await page.evaluate(async () => {
    const results = document.querySelector('.results');
    const seen = [];
    // Read as soon as the edit's render has set the new version (this observer's callback, a
    // microtask right after that render): a big group's version goes to the workers only after the
    // edit's frame, so no answer can be in yet.
    let rendered;
    const edited = new Promise((r) => (rendered = r));
    const observer = new MutationObserver((records) => {
      seen.push(...records);
      if (records.some((r) => r.target === results && r.attributeName === 'data-version')) rendered();
    });
    observer.observe(results, { childList: true, subtree: true, attributes: true, characterData: true });
    const label = [...document.querySelectorAll('label.field')].find((l) => l.querySelector('.label').textContent === 'Partitions of t0');
    const input = label.querySelector('input');
    input.value = '1999';
    input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: '1999' }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await Promise.race([edited, new Promise((r) => setTimeout(r, 10_000))]);
    const busy = results.getAttribute('aria-busy');
    const records = [...seen, ...observer.takeRecords()];
    observer.disconnect();
    return { busy, records: records.map((r) => (r.target === results ? `results ${r.type} ${r.attributeName}` : `inside: ${r.type} ${r.target.nodeName}`)) };
  });
  assert.equal(touched.busy, 'true');
  assert.deepEqual([...new Set(touched.records)].sort(), ['results attributes aria-busy', 'results attributes data-version']);
  await resultsShown(page);
  await page.close();
});

// Issue 9, a smaller page: what left the page's download still works. A file handed to Import JSON
// is opened by the file reader, a worker loaded only then (the rules for `kap batch` lines are not
// in the page or the compute worker): a batch line opens as `kap show` shows it, and a
// consumer-protocol line Kafka's coordinator throws on is refused with `kap batch`'s message. The
// links and saved copies the worker writes are `kap`'s own. What the page asks of the compute
// workers before they listen (the tab's opening, while their wasm is still loading: the lead reads
// the link, the saved work or the first preset, since the page links no reader of them) is held
// until they do, not lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  collectErrors,
  openPlayground,
  panels,
  resultsShown,
  savedScenario,
  useBrowser,
  waitForPanels,
} from './browser.mjs';
import { kap, link, show, shownChips } from './kap.mjs';

const env = useBrowser();

const banner = (page) => page.textContent('.banner[role=alert] > span');

test('Import JSON opens files in the file reader, loaded only then', async () => {
  const { page, errors } = await openPlayground(env);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  const dir = mkdtempSync(join(tmpdir(), 'kap-size-'));
  try {
    const file = join(dir, 'line.json');
    // A classic batch line: it opens as the scenario of its rebalance, as `kap show` reads it.
    const line = JSON.stringify({
      strategy: 'range',
      topics: { t0: 5, t1: 3 },
      members: [
        { id: 'C0', topics: ['t0', 't1'] },
        { id: 'C1', topics: ['t0', 't1'] },
      ],
    });
    assert.equal(fetched.filter((p) => p.startsWith('/reader')).length, 0, 'the reader waits for a file');
    writeFileSync(file, line);
    await page.setInputFiles('input[type=file]', file);
    const expected = shownChips(show(line));
    await waitForPanels(page, expected);
    await resultsShown(page);
    assert.deepEqual(await panels(page), expected);
    assert.ok(fetched.includes('/reader_bg.wasm'), fetched.join(' '));

    // A consumer-protocol line whose owned partition the topic does not have: Kafka's uniform
    // assignor throws, `kap batch` answers with the exception, and the file is refused with it.
    const ids = { a: 'eZUeEuqvSSGGPuIabmBwqg' };
    const thrown = JSON.stringify({
      protocol: 'consumer',
      strategy: 'uniform',
      topics: { a: 3 },
      topic_ids: ids,
      members: [
        { id: 'A', topics: ['a'], owned: [['a', 7]] },
        { id: 'B', topics: [] },
      ],
    });
    const answer = JSON.parse(kap(['batch'], thrown + '\n'));
    assert.equal(answer.error, 'ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 3');
    writeFileSync(file, thrown);
    await page.setInputFiles('input[type=file]', file);
    await page.waitForSelector('.banner[role=alert]');
    assert.equal(await banner(page), `That file could not be opened: ${answer.error}`);
    assert.deepEqual(await panels(page), expected, 'the work stays');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the worker writes a small group's link and saved copy as kap does", async () => {
  const text = kap(['preset', 'sticky-crash-c1']);
  const { page, errors } = await openPlayground(env, new URL(link(text, env.url)).hash);
  // The address bar and the saved copy: written by the compute worker once the answer is painted.
  await page.waitForFunction(() => localStorage.getItem('kafka-assignor-playground/scenario') !== null, null, {
    timeout: 10_000,
  });
  assert.deepEqual(JSON.parse(await savedScenario(page)), JSON.parse(text));
  assert.equal(await page.evaluate(() => location.href), link(text, env.url));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the opening asked before the compute workers listen is held until they do; a paste is then read', async () => {
  const page = await env.browser.newPage();
  const errors = collectErrors(page);
  // The workers' wasm is held back: the workers run their script but do not listen yet.
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/worker_bg.wasm', async (route) => {
    await held;
    await route.continue();
  });
  const preset = kap(['preset', 'sticky-crash-c1']);
  await page.goto(link(preset, env.url));
  // Asked, not answered: the page says it is opening the link, and shows nothing else yet.
  await page.waitForTimeout(500);
  assert.equal(await page.textContent('#page'), 'Opening the link…');
  assert.equal(await page.locator('[data-version]').count(), 0);
  release();
  await waitForPanels(page, shownChips(show(preset)));
  await page.getByRole('button', { name: 'Import from Kafka', exact: true }).click();
  const dialog = page.locator('[role=dialog][aria-label="Import from Kafka"]');
  const sample = fileURLToPath(new URL('../../crates/scenario/tests/data/import/kafka-3.6.txt', import.meta.url));
  await dialog.locator('textarea').fill(readFileSync(sample, 'utf8'));
  await dialog.locator('.import-reading[aria-busy=false]').waitFor({ timeout: 30_000 });
  const imported = kap(['import', sample]);
  await dialog.getByRole('button', { name: 'Import this group' }).click();
  const expected = shownChips(show(imported));
  await waitForPanels(page, expected);
  assert.deepEqual(await panels(page), expected);
  assert.deepEqual(errors, []);
  await page.close();
});

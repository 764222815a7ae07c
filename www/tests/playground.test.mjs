import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chips, openPlayground, useBrowser, waitForChips } from './browser.mjs';

const env = useBrowser();

test('opens on the range 5 + 3 preset with a panel for each strategy', async () => {
  const { page, errors } = await openPlayground(env);
  const strategies = await page.$$eval('section[data-strategy]', (els) => els.map((e) => e.dataset.strategy));
  assert.deepEqual(strategies, ['range', 'roundrobin', 'sticky', 'cooperative-sticky']);
  assert.deepEqual(await chips(page, 'range', 'C1'), ['T1-0', 'T1-1', 'T1-2', 'T2-0', 'T2-1']);
  assert.deepEqual(await chips(page, 'range', 'C2'), ['T1-3', 'T1-4', 'T2-2']);
  assert.deepEqual(await chips(page, 'roundrobin', 'C1'), ['T1-0', 'T1-2', 'T1-4', 'T2-1']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('typing a partition count recomputes every panel', async () => {
  const { page, errors } = await openPlayground(env);
  await page.getByLabel('Partitions of T1', { exact: true }).fill('7');
  await waitForChips(page, 'range', 'C2', ['T1-4', 'T1-5', 'T1-6', 'T2-2']);
  assert.deepEqual(await chips(page, 'range', 'C1'), ['T1-0', 'T1-1', 'T1-2', 'T1-3', 'T2-0', 'T2-1']);
  assert.deepEqual(await chips(page, 'range', 'C2'), ['T1-4', 'T1-5', 'T1-6', 'T2-2']);
  assert.deepEqual(errors, []);
  await page.close();
});

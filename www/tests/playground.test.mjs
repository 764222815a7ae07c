import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chips, openPlayground, start, waitForChips } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

test('shows a panel for each of the four strategies', async () => {
  const { page, errors } = await openPlayground(env);
  const strategies = await page.$$eval('section[data-strategy]', (els) => els.map((e) => e.dataset.strategy));
  assert.deepEqual(strategies, ['range', 'roundrobin', 'sticky', 'cooperative-sticky']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('range gives C0 t0-0 t0-1 t1-0 t1-1 and C1 t0-2 t1-2', async () => {
  const { page, errors } = await openPlayground(env);
  assert.deepEqual(await chips(page, 'range', 'C0'), ['t0-0', 't0-1', 't1-0', 't1-1']);
  assert.deepEqual(await chips(page, 'range', 'C1'), ['t0-2', 't1-2']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('typing a partition count for t0 recomputes every panel', async () => {
  const { page, errors } = await openPlayground(env);
  await page.fill('#t0-partitions', '5');
  await waitForChips(page, 'range', 'C1', ['t0-3', 't0-4', 't1-2']);
  assert.deepEqual(await chips(page, 'range', 'C0'), ['t0-0', 't0-1', 't0-2', 't1-0', 't1-1']);
  assert.deepEqual(await chips(page, 'range', 'C1'), ['t0-3', 't0-4', 't1-2']);
  assert.deepEqual(await chips(page, 'roundrobin', 'C0'), ['t0-0', 't0-2', 't0-4', 't1-1']);
  assert.deepEqual(await chips(page, 'roundrobin', 'C1'), ['t0-1', 't0-3', 't1-0', 't1-2']);
  assert.deepEqual(errors, []);
  await page.close();
});

// The subscriptions picker shows the effective subscription: a consumer's explicit topics and the
// topics its pattern subscriptions (`subscribe(Pattern)`) match. A person types a pattern into a
// consumer's patterns field, reads the picker's button and the opened list, and every panel shows
// what `kap batch` assigns when the matched topics are subscribed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { field, focusedName, openPlayground, panels, useBrowser, waitForPanels } from './browser.mjs';
import { Group } from './group.mjs';
import { link } from './kap.mjs';

const env = useBrowser();

const EVENTS = ['events-0', 'events-1', 'events-2', 'events-3', 'events-4'];
const ORDERS = ['orders-0', 'orders-1', 'orders-2', 'orders-3', 'orders-4'];

/** A consumer's picker button (its accessible name starts "Subscriptions of ID: "). */
const pickerButton = (page, id) => page.locator(`[data-consumer="${id}"] .picker-toggle`);

/** Waits until `id`'s picker button reads `name` (its accessible name), then asserts it. */
async function expectButton(page, id, name) {
  await page
    .waitForFunction(([id, name]) => document.querySelector(`[data-consumer="${id}"] .picker-toggle`)?.getAttribute('aria-label') === name, [id, name])
    .catch(() => {});
  assert.equal(await pickerButton(page, id).getAttribute('aria-label'), name);
}

/** The opened picker's topics as a person reads them: name, checked, can be unticked, note. */
const pickerRows = (page, id) =>
  page.$$eval(`[role=group][aria-label="Topics ${id} subscribes to"] .picker-list label`, (labels) =>
    labels.map((l) => {
      const box = l.querySelector('input');
      return [l.querySelector('.topic-name').textContent, box.checked, !box.disabled, l.querySelector('.matched-by')?.textContent ?? null];
    }),
  );

test('a pattern subscription: the picker counts and lists the topics it matches, and the panels assign them', async () => {
  // 10 topics: beyond INLINE_TOPICS (8), so each consumer's subscriptions are a picker.
  const topics = Object.fromEntries([...EVENTS.map((t) => [t, 2]), ...ORDERS.map((t) => [t, 3])]);
  const group = new Group(topics, [
    { id: 'C1', topics: ['orders-0', 'orders-1'] },
    { id: 'C2', topics: [...ORDERS, 'events-0'] },
  ]);
  const url = link(group.scenarioText(), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  let shown = group.expected(null);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'the group as opened');
  await expectButton(page, 'C1', 'Subscriptions of C1: 2 of 10 topics');
  assert.equal(await page.locator('section.consumers-editor input[type=checkbox]').count(), 0, 'no list until it is opened');

  // C1 subscribes to events-.* as well: typed key by key, one field's edits are one rebalance.
  const before = shown;
  const patterns = field(page, 'Pattern subscriptions of C1');
  await patterns.click();
  await patterns.pressSequentially('events-.*');
  // The assignors see the explicit topics, then the matched ones in the topics' order.
  group.members[0].topics.push(...EVENTS);
  shown = group.expected(before);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'after typing the pattern');
  group.checkInvariants(shown);
  await expectButton(page, 'C1', 'Subscriptions of C1: 7 of 10 topics, 5 matched by a pattern');
  assert.match(await pickerButton(page, 'C1').innerText(), /^7 of 10 topics \(5 by pattern\) ▾$/);

  // Opened: the matched topics are ticked, named by the pattern, and not boxes to untick.
  await pickerButton(page, 'C1').click();
  const picker = page.locator('[role=group][aria-label="Topics C1 subscribes to"]');
  await picker.waitFor();
  const matched = (t) => [t, true, false, 'matched by events-.*'];
  assert.deepEqual(await pickerRows(page, 'C1'), [
    ...EVENTS.map(matched),
    ['orders-0', true, true, null],
    ['orders-1', true, true, null],
    ['orders-2', false, true, null],
    ['orders-3', false, true, null],
    ['orders-4', false, true, null],
  ]);
  assert.equal(await picker.locator('.picker-bar .hint').textContent(), '7 of 10 shown');
  assert.equal(await picker.getByLabel('C1 subscribes to events-3: matched by events-.*', { exact: true }).isDisabled(), true);

  // An explicit topic still toggles, from the opened list.
  const previous = shown;
  await picker.getByLabel('C1 subscribes to orders-2', { exact: true }).click();
  group.members[0].topics.splice(2, 0, 'orders-2');
  shown = group.expected(previous);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'after ticking orders-2');
  await expectButton(page, 'C1', 'Subscriptions of C1: 8 of 10 topics, 5 matched by a pattern');
  assert.deepEqual((await pickerRows(page, 'C1'))[7], ['orders-2', true, true, null]);

  // Filtered, the shown count counts the matched topics too.
  await picker.getByLabel('Filter the topics of C1', { exact: true }).fill('-3');
  await page.waitForFunction(() => document.querySelectorAll('.picker-list label').length === 2);
  assert.deepEqual(await pickerRows(page, 'C1'), [matched('events-3'), ['orders-3', false, true, null]]);
  assert.equal(await picker.locator('.picker-bar .hint').textContent(), '1 of 2 shown');
  await page.keyboard.press('Escape');
  await picker.waitFor({ state: 'detached' });
  assert.match(await focusedName(page), /^Subscriptions of C1: 8 of 10 topics, 5 matched by a pattern$/);

  // C2 subscribes to events-0 explicitly; its pattern matches it too (still a box to untick) and two more.
  const beforeC2 = shown;
  await field(page, 'Pattern subscriptions of C2').fill('events-[0-2]');
  group.members[1].topics.push('events-1', 'events-2');
  shown = group.expected(beforeC2);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'after C2 pattern');
  await expectButton(page, 'C2', 'Subscriptions of C2: 8 of 10 topics, 2 matched by a pattern');
  await pickerButton(page, 'C2').click();
  await page.locator('[role=group][aria-label="Topics C2 subscribes to"]').waitFor();
  assert.equal(await page.locator('.picker').count(), 1, 'one picker open at a time');
  assert.deepEqual((await pickerRows(page, 'C2')).slice(0, 4), [
    ['events-0', true, true, 'also matched by events-[0-2]'],
    ['events-1', true, false, 'matched by events-[0-2]'],
    ['events-2', true, false, 'matched by events-[0-2]'],
    ['events-3', false, true, null],
  ]);

  // Clearing C1's pattern leaves its explicit topics.
  const beforeClear = shown;
  await field(page, 'Pattern subscriptions of C1').fill('');
  group.members[0].topics = ['orders-0', 'orders-1', 'orders-2'];
  shown = group.expected(beforeClear);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'after clearing the pattern');
  await expectButton(page, 'C1', 'Subscriptions of C1: 3 of 10 topics');
  assert.deepEqual(errors, []);
  await page.close();
});

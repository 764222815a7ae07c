// Editing the group as a person does — add a topic, add consumers, toggle subscriptions, change
// partition counts (typing and −/+), rename, duplicate — and after each edit every panel shows
// exactly what `kap batch` assigns for the same group. Every edit is a rebalance from the last
// assignment, so each member's previous partitions go in as its `owned` ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STRATEGIES,
  exportScenario,
  field,
  metrics,
  openPlayground,
  panels,
  useBrowser,
  waitForPanels,
} from './browser.mjs';
import { Group } from './group.mjs';
import { show, shownChips } from './kap.mjs';

const env = useBrowser();

test('each edit: every panel equals kap batch for the same group (owned = the assignment before)', async () => {
  const { page, errors } = await openPlayground(env);
  const group = new Group({ T1: 5, T2: 3 }, [
    { id: 'C1', topics: ['T1', 'T2'] },
    { id: 'C2', topics: ['T1', 'T2'] },
  ]);
  const click = (name) => page.getByRole('button', { name, exact: true }).click();
  const check = (label) => page.getByLabel(label, { exact: true }).click();

  // The start is a fresh group: nobody owns anything, as after "Fresh start".
  await click('Fresh start');
  let previous = null;
  let shown = group.expected(previous);
  await waitForPanels(page, shown);
  assert.deepEqual(await panels(page), shown, 'fresh group');

  // field: edits of one field in a row are one rebalance from where the first one started.
  let lastField = null;
  const step = async (what, fieldKey, act, model) => {
    await act();
    model();
    if (fieldKey === null || fieldKey !== lastField) previous = shown;
    lastField = fieldKey;
    shown = group.expected(previous);
    await waitForPanels(page, shown);
    const state = await panels(page);
    assert.deepEqual(state, shown, `after: ${what}`);
    group.checkInvariants(state);
  };

  await step('Add topic', null, () => click('Add topic'), () => (group.topics.t0 = 3));
  await step('C1 subscribes to t0', null, () => check('C1 subscribes to t0'), () => group.members[0].topics.push('t0'));
  await step(
    'Add consumer',
    null,
    () => click('Add consumer'),
    // A new consumer copies the last one's subscriptions and takes the smallest free C<n>.
    () => group.members.push({ id: 'C0', topics: ['T1', 'T2'] }),
  );
  await step('C0 subscribes to t0', null, () => check('C0 subscribes to t0'), () => group.members[2].topics.push('t0'));
  await step('t0 has 7 partitions (typed)', 'partitions t0', () => field(page, 'Partitions of t0').fill('7'), () => (group.topics.t0 = 7));
  await step('T2 plus one', 'partitions T2', () => click('Partitions of T2 plus one'), () => (group.topics.T2 = 4));
  // A second click on the same count continues the same edit: one rebalance from T2 = 3.
  await step('T2 plus one again', 'partitions T2', () => click('Partitions of T2 plus one'), () => (group.topics.T2 = 5));
  await step('T1 minus one', 'partitions T1', () => click('Partitions of T1 minus one'), () => (group.topics.T1 = 4));
  await step(
    'C2 unsubscribes from T1',
    null,
    () => check('C2 subscribes to T1'),
    () => (group.members[1].topics = group.members[1].topics.filter((t) => t !== 'T1')),
  );
  await step(
    'rename T2 to orders',
    'name 2',
    () => field(page, 'Name of topic 2').fill('orders'),
    () => {
      // The editor keeps the topic's place; subscriptions follow the new name.
      group.topics = Object.fromEntries(Object.entries(group.topics).map(([t, n]) => [t === 'T2' ? 'orders' : t, n]));
      for (const m of group.members) m.topics = m.topics.map((t) => (t === 'T2' ? 'orders' : t));
    },
  );
  await step('rename C2 to C9', 'id 2', () => field(page, 'member.id of consumer 2').fill('C9'), () => (group.members[1].id = 'C9'));
  await step(
    'Duplicate C1',
    null,
    () => click('Duplicate C1'),
    () => group.members.splice(1, 0, { id: 'C1-0', topics: [...group.members[0].topics] }),
  );
  // The editors show the group as edited: topics in order, the duplicate right after its original.
  assert.deepEqual(await page.$$eval('[data-topic]', (rows) => rows.map((r) => r.dataset.topic)), ['T1', 'orders', 't0']);
  assert.deepEqual(await page.$$eval('[data-consumer]', (rows) => rows.map((r) => r.dataset.consumer)), [
    'C1',
    'C1-0',
    'C9',
    'C0',
  ]);
  for (const m of group.members) {
    for (const topic of Object.keys(group.topics)) {
      const box = page.getByLabel(`${m.id} subscribes to ${topic}`, { exact: true });
      assert.equal(await box.isChecked(), m.topics.includes(topic), `${m.id} subscribes to ${topic}`);
    }
  }
  assert.deepEqual(
    await Promise.all(['T1', 'orders', 't0'].map((t) => field(page, `Partitions of ${t}`).inputValue())),
    ['4', '5', '7'],
  );

  // Typed key by key: "1" then "12" is one rebalance, from t0 = 7.
  await step(
    't0 has 12 partitions (keystrokes)',
    'partitions t0',
    async () => {
      const input = field(page, 'Partitions of t0');
      await input.click();
      await input.press('Control+a');
      await input.pressSequentially('12');
    },
    () => (group.topics.t0 = 12),
  );
  // The rebalance triggers: grow a topic (by up to 3), create a topic, subscribe to it.
  await step('Add partitions to T1', null, () => click('Add partitions to T1'), () => (group.topics.T1 = 7));
  await page.selectOption('#grow-topic', 't0');
  await step('Add partitions to t0', null, () => click('Add partitions to t0'), () => (group.topics.t0 = 15));
  await step('Create a topic', null, () => click('Create a topic'), () => (group.topics['new-topic'] = 3));
  await step(
    'C0 subscribes to new-topic',
    null,
    () => check('C0 subscribes to new-topic'),
    () => group.members.find((m) => m.id === 'C0').topics.push('new-topic'),
  );

  // The diff figures agree with kap on the exported file, which holds the assignment before.
  const exported = await exportScenario(page);
  const truth = show(exported);
  assert.deepEqual(await panels(page), shownChips(truth));
  for (const strategy of STRATEGIES) {
    const r = truth.strategies[strategy];
    const m = await metrics(page, strategy);
    const paused = Object.values(r.paused).reduce((n, l) => n + l.length, 0);
    assert.match(m.moved, new RegExp(`^${r.moved.length} \\(`), `${strategy} moved`);
    assert.equal(m.paused, String(paused), `${strategy} paused`);
    assert.equal(m['needless moves'], String(r.metrics.needless_moves), `${strategy} needless moves`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// Editing the group as a person does — add a topic, add consumers, toggle subscriptions, change
// partition counts (typing and −/+), rename, duplicate — and after each edit every panel shows
// exactly what `kap batch` assigns for the same group. Every edit is a rebalance from the last
// assignment, so each member's previous partitions go in as its `owned` ones. Also: the topic
// picker of big groups, the preset's "edited" line, and (in a debug build) what an edit re-renders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STRATEGIES,
  exportScenario,
  field,
  focusedName,
  metrics,
  openPlayground,
  panels,
  renderCounts,
  useBrowser,
  waitForPanels,
} from './browser.mjs';
import { Group, bigGroup } from './group.mjs';
import { consumerTopics, link, show, shownChips } from './kap.mjs';
import { mountRows } from './rows.mjs';

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

/** The subscription picker's button of a consumer ("Subscriptions of C: n of m topics"). */
const pickerButton = (page, id) => page.getByRole('button', { name: new RegExp(`^Subscriptions of ${id}: \\d+ of \\d+ topics$`) });
const pickerCount = async (page, id) => (await pickerButton(page, id).getAttribute('aria-label')).match(/: (\d+) of/)[1];

test('50 topics x 200 consumers: a topic picker per consumer, one open at a time; filter, all and none are one edit each', async (t) => {
  const url = link(bigGroup(50, 200), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  const editor = page.locator('section.consumers-editor');
  await mountRows(page, 200);
  // No checkbox per consumer and topic: 200 buttons instead of 10,000 checkboxes.
  assert.equal(await editor.locator('input[type=checkbox]').count(), 0);
  assert.equal(await page.$$eval('[data-consumer]', (rows) => rows.length), 200);
  assert.equal(await pickerCount(page, 'consumer-7'), '50');
  assert.equal(await pickerCount(page, 'consumer-6'), '25');

  await pickerButton(page, 'consumer-7').click();
  const picker = page.locator('[role=group][aria-label="Topics consumer-7 subscribes to"]');
  await picker.waitFor();
  assert.equal(await editor.locator('input[type=checkbox]').count(), 50);
  assert.equal(await focusedName(page), 'Filter the topics of consumer-7', 'the filter has the focus');
  await page.keyboard.type('orders-4');
  await page.waitForFunction(() => document.querySelectorAll('.picker input[type=checkbox]').length === 11);
  assert.deepEqual(
    await picker.locator('.topic-name').allTextContents(),
    ['orders-4', ...Array.from({ length: 10 }, (_, i) => `orders-4${i}`)],
  );
  // "None shown": the 11 topics go in one edit (one undo step).
  let started = Date.now();
  await picker.getByRole('button', { name: 'Unsubscribe consumer-7 from every topic shown', exact: true }).click();
  await page.waitForFunction(() => /: 39 of 50 topics$/.test(document.querySelector('[data-consumer="consumer-7"] .picker-toggle').getAttribute('aria-label')));
  t.diagnostic(`None shown → 39 of 50 painted in ${Date.now() - started} ms`);
  assert.equal(await picker.getByLabel('consumer-7 subscribes to orders-42', { exact: true }).isChecked(), false);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.waitForFunction(() => /: 50 of 50 topics$/.test(document.querySelector('[data-consumer="consumer-7"] .picker-toggle').getAttribute('aria-label')));

  // One topic at a time, with the filter cleared.
  await picker.getByLabel('Filter the topics of consumer-7', { exact: true }).fill('');
  started = Date.now();
  await picker.getByLabel('consumer-7 subscribes to orders-0', { exact: true }).click();
  await page.waitForFunction(() => /: 49 of 50 topics$/.test(document.querySelector('[data-consumer="consumer-7"] .picker-toggle').getAttribute('aria-label')));
  t.diagnostic(`one checkbox → 49 of 50 painted in ${Date.now() - started} ms`);

  // Escape closes it and gives the focus back to its button.
  await page.keyboard.press('Escape');
  await picker.waitFor({ state: 'detached' });
  assert.match(await focusedName(page), /^Subscriptions of consumer-7: 49 of 50 topics$/);
  assert.equal(await editor.locator('input[type=checkbox]').count(), 0);

  // Another consumer's picker; opening a second closes the first.
  await pickerButton(page, 'consumer-6').click();
  await pickerButton(page, 'consumer-9').click();
  assert.equal(await page.locator('.picker').count(), 1);
  await pickerButton(page, 'consumer-6').click();
  await page.getByRole('button', { name: 'Subscribe consumer-6 to every topic shown', exact: true }).click();
  await page.waitForFunction(() => /: 50 of 50 topics$/.test(document.querySelector('[data-consumer="consumer-6"] .picker-toggle').getAttribute('aria-label')));
  await page.getByRole('button', { name: 'Done', exact: true }).click();
  await page.locator('.picker').waitFor({ state: 'detached' });

  // The page shows what kap shows for the group as edited.
  const exported = await exportScenario(page);
  const file = JSON.parse(exported);
  assert.deepEqual([...consumerTopics(file, 'consumer-7')].sort(), Array.from({ length: 49 }, (_, i) => `orders-${i + 1}`).sort());
  assert.equal(consumerTopics(file, 'consumer-6').length, 50);
  assert.deepEqual(await panels(page), shownChips(show(exported)));
  assert.deepEqual(errors, []);
  await page.close();
});

test("a preset's note says once the group is edited from it, in a line that was there all along", async () => {
  const { page, errors } = await openPlayground(env);
  const edited = page.locator('section.intro .edited');
  assert.equal(await edited.textContent(), '');
  // The intro's height and where the topics editor below it starts, in page coordinates.
  const where = () =>
    page.$eval('section.intro', (s) => [s.offsetHeight, document.querySelector('section.topics-editor').getBoundingClientRect().top + scrollY]);
  const before = await where();
  // A count typed and left by clicking a button: the count is applied as the field loses focus, the
  // note appears then, and nothing moves under the pointer: the click lands.
  await field(page, 'Partitions of T1').fill('9');
  await page.getByRole('button', { name: 'Add consumer', exact: true }).click();
  await page.waitForSelector('[data-consumer="C0"]');
  await page.waitForFunction(() => document.querySelector('section.intro .edited').textContent !== '');
  assert.match(await edited.textContent(), /^Edited from the preset “Range: why one consumer carries 5 partitions/);
  assert.deepEqual(await where(), before, 'the note took no room of its own');
  // Back to the preset's group: the note goes.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('section.intro .edited').textContent === '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an edit to one consumer re-renders its row and no other (render counts of a debug build)', async (t) => {
  const url = link(bigGroup(12, 10), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  const counts = () => renderCounts(page);
  if (Object.keys(await counts()).length === 0) {
    t.skip('render counts exist in debug builds only: trunk build --dist DIR, then PLAYGROUND_DIST=DIR');
    await page.close();
    return;
  }
  const delta = (before, after) =>
    Object.fromEntries(Object.keys(after).map((k) => [k.replace(/^renders/, ''), Number(after[k]) - Number(before[k] ?? 0)]));
  /** Waits for the saved work to pass `check` (a function of the scenario file, as source text). */
  const saved = (check) =>
    page.waitForFunction(`(${check})(JSON.parse(localStorage.getItem('kafka-assignor-playground/scenario') ?? '{}'))`);
  let before = await counts();
  await field(page, 'client.rack of consumer-3').fill('r1');
  await saved((s) => s.consumers?.[3].rack === 'r1');
  let changed = delta(before, await counts());
  t.diagnostic(`client.rack of one consumer: ${JSON.stringify(changed)}`);
  assert.equal(changed.Consumerrow, 1, 'one consumer row');
  assert.equal(changed.Topicrow, 0, 'no topic row');
  assert.equal(changed.Weightrow, 0, 'no traffic row');
  assert.ok(changed.Textfield <= 3, `only the rack field (${changed.Textfield} renders)`);
  // A topic's partition count: its topic row and its traffic row, no consumer row.
  before = await counts();
  await page.getByRole('button', { name: 'Partitions of orders-5 plus one', exact: true }).click();
  await saved((s) => s.topics?.[5].partitions === 3);
  changed = delta(before, await counts());
  t.diagnostic(`partitions of one topic: ${JSON.stringify(changed)}`);
  assert.equal(changed.Topicrow, 1, 'one topic row');
  assert.equal(changed.Weightrow, 1, 'its traffic row');
  assert.equal(changed.Consumerrow, 0, 'no consumer row');
  assert.deepEqual(errors, []);
  await page.close();
});

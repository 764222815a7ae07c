// A consumer joins, then one crashes: the rows, the revoked chips, the moved and paused counts and
// the rounds each protocol takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STRATEGIES,
  exportScenario,
  field,
  focusedName,
  openPlayground,
  panelDetails,
  panels,
  revokedChips,
  useBrowser,
  waitForPanels,
} from './browser.mjs';
import { Group } from './group.mjs';
import { show } from './kap.mjs';

const env = useBrowser();

const EAGER = ['range', 'roundrobin', 'sticky'];
const count = (rows) => Object.values(rows).reduce((n, chips) => n + chips.length, 0);
/** strategy → member → chips, each member's chips sorted. */
const sorted = (state) =>
  Object.fromEntries(
    Object.entries(state).map(([s, rows]) => [
      s,
      Object.fromEntries(Object.entries(rows).map(([m, chips]) => [m, [...chips].sort()])),
    ]),
  );

/** A percentage as the page prints it (Rust's `{:.0}`: halves round to even, 62.5 → 62). */
function percent(part, whole) {
  const x = (100 * part) / whole;
  const r = Math.round(x);
  return x - Math.floor(x) === 0.5 && r % 2 === 1 ? r - 1 : r;
}

/** Partitions whose owner changed from `before` to `after` (member → chips, per strategy). */
function moved(before, after) {
  const owner = new Map(Object.entries(before).flatMap(([m, chips]) => chips.map((c) => [c, m])));
  return Object.entries(after).flatMap(([m, chips]) => chips.filter((c) => owner.get(c) !== m));
}

/** What each member shown in `after` had in `before` and no longer has. */
const lost = (before, after) =>
  Object.fromEntries(Object.keys(after).map((m) => [m, (before[m] ?? []).filter((c) => !after[m].includes(c)).sort()]));

test('a consumer joins, then C1 crashes: rows, revoked chips, moves, pauses and rounds', async () => {
  const { page, errors } = await openPlayground(env);
  const group = new Group({ T1: 5, T2: 3 }, [
    { id: 'C1', topics: ['T1', 'T2'] },
    { id: 'C2', topics: ['T1', 'T2'] },
  ]);
  const start = await panels(page);
  assert.deepEqual(start, group.expected(null));

  // C0 joins (the trigger takes the smallest free C<n> and the last consumer's subscriptions).
  await page.getByRole('button', { name: 'A consumer joins', exact: true }).click();
  group.members.push({ id: 'C0', topics: ['T1', 'T2'] });
  const joined = group.expected(start);
  await waitForPanels(page, joined);
  assert.deepEqual(await panels(page), joined, 'after C0 joins');
  let details = await panelDetails(page);
  for (const s of EAGER) {
    // Eager: every member gives up everything it owns, so all 8 partitions stop.
    assert.equal(details[s].metrics.paused, '8', `${s} paused after the join`);
    assert.deepEqual(details[s].rounds, ['round 1 · generation 2 every member revokes all it owns, then gets 8 partitions']);
    assert.equal(details[s].summary, 'stop-the-world: 8 partitions stop while the group rebalances');
  }
  // Cooperative: only what moves to C0 stops, and it takes a second round to hand it over.
  const coopMoved = moved(start['cooperative-sticky'], joined['cooperative-sticky']);
  assert.equal(coopMoved.length, 2);
  assert.equal(details['cooperative-sticky'].metrics.paused, '2');
  assert.equal(details['cooperative-sticky'].metrics.moved, '2 (25%)');
  assert.deepEqual(details['cooperative-sticky'].rounds, [
    'round 1 · generation 2 2 revoked, 2 held back until their owner lets go, 0 handed out',
    'round 2 · generation 3 follow-up: 2 handed to their new owner, 0 revoked',
  ]);
  assert.equal(details['cooperative-sticky'].summary, 'only the 2 partitions that move stop; the rest keep flowing');
  assert.deepEqual(sorted(await revokedChips(page)), Object.fromEntries(STRATEGIES.map((s) => [s, lost(start[s], joined[s])])));

  // C1 crashes.
  await page.getByRole('button', { name: 'C1 crashes or leaves', exact: true }).click();
  group.members = group.members.filter((m) => m.id !== 'C1');
  const crashed = group.expected(joined);
  await waitForPanels(page, crashed);
  assert.deepEqual(await panels(page), crashed, 'after C1 crashes');
  // Its row is gone from the consumers table and from every panel.
  assert.deepEqual(await page.$$eval('[data-consumer]', (rows) => rows.map((r) => r.dataset.consumer)), ['C2', 'C0']);
  assert.equal(await page.$$eval('[data-member="C1"]', (rows) => rows.length), 0);
  assert.equal(await page.getByLabel('C1 subscribes to T1', { exact: true }).count(), 0);

  // Survivors show what they gave up as revoked chips; the counts agree with the chips.
  const revoked = await revokedChips(page);
  assert.deepEqual(sorted(revoked), Object.fromEntries(STRATEGIES.map((s) => [s, lost(joined[s], crashed[s])])));
  assert.deepEqual(revoked.roundrobin, { C0: ['T1-3'], C2: ['T1-2'] });
  details = await panelDetails(page);
  for (const s of STRATEGIES) {
    const n = moved(joined[s], crashed[s]).length;
    assert.ok(n >= 3, `${s}: C1's three partitions move`);
    assert.equal(details[s].metrics.moved, `${n} (${percent(n, 8)}%)`, `${s} moved`);
  }
  for (const s of EAGER) {
    // Everything the survivors owned stops (C1's partitions stopped with C1).
    const owned = count(Object.fromEntries(Object.entries(joined[s]).filter(([m]) => m !== 'C1')));
    assert.equal(details[s].metrics.paused, String(owned), `${s} paused`);
    assert.deepEqual(details[s].rounds, ['round 1 · generation 4 every member revokes all it owns, then gets 8 partitions']);
    assert.equal(details[s].summary, `stop-the-world: ${owned} partitions stop while the group rebalances`);
  }
  // Cooperative-sticky: the survivors keep all they had; C1's three go out in one round.
  assert.equal(details['cooperative-sticky'].metrics.paused, '0');
  assert.deepEqual(details['cooperative-sticky'].rounds, [
    'round 1 · generation 4 3 revoked, 0 held back until their owner lets go, 3 handed out',
  ]);

  // The same figures as kap computes from the exported file.
  const truth = show(await exportScenario(page));
  for (const s of STRATEGIES) {
    const r = truth.strategies[s];
    assert.equal(details[s].metrics.moved.split(' ')[0], String(r.moved.length), `${s} moved (kap)`);
    assert.equal(details[s].metrics.paused, String(count(r.paused)), `${s} paused (kap)`);
    assert.equal(details[s].rounds.length, r.rounds.length, `${s} rounds (kap)`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('after a crash or a removal from the keyboard, the focus goes to the next row\'s same button', async () => {
  const { page, errors } = await openPlayground(env);
  await page.getByRole('button', { name: 'Add consumer', exact: true }).click();
  await page.waitForSelector('[data-consumer="C0"]');
  // Rows are keyed by something that survives renames and removals: C2's row is the same
  // element after C1 (before it) goes and after C2 is renamed.
  await page.$eval('[data-consumer="C2"]', (row) => (row.dataset.marked = 'yes'));
  const press = async (label) => {
    await page.getByRole('button', { name: label, exact: true }).focus();
    await page.keyboard.press('Enter');
  };

  await press('C1 crashes or leaves');
  await page.waitForFunction(() => !document.querySelector('[data-consumer="C1"]'));
  assert.equal(await focusedName(page), 'C2 crashes or leaves', 'the row that took its place');
  assert.equal(await page.$eval('[data-consumer="C2"]', (row) => row.dataset.marked), 'yes');
  await field(page, 'member.id of consumer 1').fill('C2x');
  await page.waitForSelector('[data-consumer="C2x"]');
  assert.equal(await page.$eval('[data-consumer="C2x"]', (row) => row.dataset.marked), 'yes', 'renamed, same row');

  // The last row: the focus goes to the row before.
  await press('C0 crashes or leaves');
  await page.waitForFunction(() => !document.querySelector('[data-consumer="C0"]'));
  assert.equal(await focusedName(page), 'C2x crashes or leaves');
  // A second Enter crashes the consumer the focus is on; with none left, "Add consumer" has it.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.querySelector('[data-consumer]'));
  assert.equal(await focusedName(page), 'Add consumer');

  // Topics the same way.
  await press('Remove topic T1');
  await page.waitForFunction(() => !document.querySelector('[data-topic="T1"]'));
  assert.equal(await focusedName(page), 'Remove topic T2');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.querySelector('[data-topic]'));
  assert.equal(await focusedName(page), 'Add topic');
  // Undo brings them back; the focus stays where it is.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.waitForSelector('[data-topic="T2"]');
  assert.deepEqual(errors, []);
  await page.close();
});

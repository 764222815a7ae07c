// A big group's history travels: the compute worker keeps what each member owned before an edit
// (the page holds a group of 100,000 partitions without it), yet its share link, its saved copy
// and its exported file carry it. Each reopens to the rebalance the page showed — what `kap show
// --json` says of the exported file — and the next edit moves what `kap batch` moves from there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRATEGIES, exportScenario, metrics, openPlayground, panelSelector, resultsShown, useBrowser } from './browser.mjs';
import { batch, chipsOf, link, show } from './kap.mjs';

const env = useBrowser();

const SLOW = 240_000; // four strategies over 100,000 partitions, on a shared machine
const panel = panelSelector;

/** Kafka's large test at a tenth: 100 topics × 1,000 partitions, 500 consumers in two halves. */
const TOPICS = Array.from({ length: 100 }, (_, i) => `t${i}`);
const CONSUMERS = Array.from({ length: 500 }, (_, i) => ({ id: `C${i}`, topics: i % 4 ? TOPICS.slice(50) : TOPICS.slice(0, 50) }));
const TEXT = JSON.stringify({
  version: 1,
  title: '100,000 partitions in two halves',
  topics: TOPICS.map((name) => ({ name, partitions: 1000 })),
  consumers: CONSUMERS,
});

/** Clicks "A consumer joins" and waits for the worker's answer. */
async function join(page) {
  await page.getByRole('button', { name: 'A consumer joins', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-version]')?.getAttribute('aria-busy') === 'true', null, { timeout: SLOW }).catch(() => {});
  await resultsShown(page, SLOW);
}

/** The saved copy and the address bar, once both hold `member` and a previous assignment (format 2). */
async function waitForHistory(page, member) {
  const handle = await page.waitForFunction(
    (member) => {
      const text = localStorage.getItem('kafka-assignor-playground/scenario');
      if (!text || !location.hash.startsWith('#v2.')) return false;
      const saved = JSON.parse(text);
      return saved.previous && saved.consumers.some((c) => c.id === member) && text;
    },
    member,
    { timeout: SLOW, polling: 500 },
  );
  return handle.jsonValue();
}

/** What a panel shows of `members`: their counts and `+added −revoked`, found with its search box. */
async function rows(page, strategy, members) {
  const out = {};
  for (const id of members) {
    await page.locator(`${panel(strategy)} input[type="search"]`).fill(id);
    const row = `${panel(strategy)} [data-member="${id}"]`;
    await page.waitForSelector(row);
    out[id] = await page.$eval(row, (r) => ({
      count: Number(r.querySelector('.count').textContent),
      changes: r.querySelector('.changes')?.textContent ?? null,
    }));
  }
  return out;
}

/** An opened member's partitions, in order. */
async function opened(page, strategy, id) {
  await page.locator(`${panel(strategy)} input[type="search"]`).fill(id);
  await page.click(`${panel(strategy)} [data-member="${id}"] button.open-member`);
  const chips = `${panel(strategy)} [data-opened-member="${id}"] [data-partition]`;
  await page.waitForSelector(chips);
  const shown = await page.$$eval(chips, (els) => els.map((e) => e.dataset.partition));
  await page.click(`${panel(strategy)} [data-opened-member="${id}"] button.close`);
  return shown;
}

/** Every panel's figures for `members` of each strategy, and `id`'s opened partitions under sticky. */
async function figures(page, members, id) {
  const out = {};
  for (const strategy of STRATEGIES) {
    const m = await metrics(page, strategy);
    out[strategy] = { spread: m.spread, moved: parseInt(m.moved, 10), rows: await rows(page, strategy, members[strategy]) };
  }
  out.opened = await opened(page, 'sticky', id);
  return out;
}

/** The same figures from member → partitions before and after (chips): what the diff says. */
function expected(before, after, members) {
  const counts = Object.values(after).map((list) => list.length);
  const [max, min] = [Math.max(...counts), Math.min(...counts)];
  const ownerBefore = new Map(Object.entries(before).flatMap(([m, list]) => list.map((p) => [p, m])));
  const ownerAfter = new Map(Object.entries(after).flatMap(([m, list]) => list.map((p) => [p, m])));
  const moves = [...ownerAfter].filter(([p, m]) => ownerBefore.has(p) && ownerBefore.get(p) !== m);
  const rows = {};
  for (const id of members) {
    const added = moves.filter(([, to]) => to === id).length;
    const revoked = moves.filter(([p]) => ownerBefore.get(p) === id).length;
    rows[id] = { count: after[id]?.length ?? 0, changes: added || revoked ? `+${added} −${revoked}` : null };
  }
  return { spread: `${max - min} (max ${max}, min ${min})`, moved: moves.length, rows };
}

/** Member → chips of a `kap` assignment. */
const chipMap = (assignment) => Object.fromEntries(Object.entries(assignment).map(([m, pairs]) => [m, chipsOf(pairs)]));

/** The members whose rows are compared: the newcomer, one that gave partitions up, one unchanged. */
function watched(before, after, newcomer) {
  const gave = Object.keys(before).find((m) => after[m] && after[m].length < before[m].length) ?? 'C0';
  return [newcomer, gave, 'C1'];
}

test("a big group's link, saved copy and export carry its history: each reopens to the same rebalance", async (t) => {
  const url = link(TEXT, env.url);
  const { page, errors } = await openPlayground(env, url.slice(env.url.length));
  await resultsShown(page, SLOW);
  assert.equal(await page.$$eval(`${panel('sticky')} [data-partition]`, (e) => e.length), 0, 'a summarised group');
  await join(page);
  const answered = Date.now();
  const saved = await waitForHistory(page, 'C500');
  t.diagnostic(`saved with its history ${Date.now() - answered} ms after the answer: ${saved.length} bytes`);

  // The export is the saved copy, and kap reads from it the rebalance the page shows.
  const exported = await exportScenario(page);
  assert.equal(exported, saved);
  const file = JSON.parse(exported);
  assert.equal(file.version, 2);
  assert.deepEqual(Object.keys(file.previous.assignments).sort(), [...STRATEGIES].sort());
  const shown = show(exported);
  const want = {};
  const members = {};
  for (const strategy of STRATEGIES) {
    const r = shown.strategies[strategy];
    const after = chipMap(r.assignment);
    // The diff of kap show, which the page's moved figure and rows must match.
    const before = Object.fromEntries(Object.keys(after).map((m) => [m, after[m].filter(() => true)]));
    for (const move of r.moved) {
      const chip = `${move.partition[0]}-${move.partition[1]}`;
      if (move.to) before[move.to] = before[move.to].filter((p) => p !== chip);
      (before[move.from] ??= []).push(chip);
    }
    members[strategy] = watched(before, after, 'C500');
    want[strategy] = expected(before, after, members[strategy]);
    assert.equal(want[strategy].moved, r.moved.length, strategy);
  }
  want.opened = chipsOf(shown.strategies.sticky.assignment.C500);
  assert.ok(want.sticky.moved > 0, 'the join moves partitions');
  assert.deepEqual(await figures(page, members, 'C500'), want, 'the page after the edit');

  // The link the dialog hands out is kap's link of the exported file, under the shareable limit.
  await page.getByRole('button', { name: 'Share link', exact: true }).click();
  const input = '[role=dialog][aria-label="Share link"] input.link';
  await page.waitForSelector(input, { timeout: SLOW });
  const shared = await page.inputValue(input);
  assert.ok(shared.length <= 40_000, `${shared.length} characters`);
  t.diagnostic(`share link: ${shared.length} characters`);
  assert.equal(shared, page.url());
  assert.equal(shared, link(exported, env.url));
  await page.keyboard.press('Escape');

  // Opened in another browser (no saved work): the same rebalance.
  const other = await openPlayground(env, shared.slice(env.url.length));
  await resultsShown(other.page, SLOW);
  assert.deepEqual(await figures(other.page, members, 'C500'), want, 'the share link');
  assert.deepEqual(other.errors, []);
  await other.page.close();

  // A reload (the address bar's link over the saved copy), then the saved copy without a link:
  // the same rebalance.
  await page.reload();
  await page.waitForSelector('section[data-strategy]', { timeout: SLOW });
  await resultsShown(page, SLOW);
  assert.deepEqual(await figures(page, members, 'C500'), want, 'after a reload');
  await page.goto(env.url);
  await page.waitForSelector('section[data-strategy]', { timeout: SLOW });
  await resultsShown(page, SLOW);
  assert.deepEqual(await figures(page, members, 'C500'), want, 'the saved copy');

  // A further edit moves what kap batch moves from the assignment the export holds as settled.
  await join(page);
  const consumers = [...CONSUMERS, { id: 'C500', topics: TOPICS.slice(50) }, { id: 'C501', topics: TOPICS.slice(50) }];
  const topics = Object.fromEntries(TOPICS.map((t) => [t, 1000]));
  const eager = ['range', 'roundrobin', 'sticky'];
  const owned = eager.map((strategy) => chipMap(shown.strategies[strategy].assignment));
  const assigned = batch(
    eager.map((strategy, i) => ({
      strategy,
      topics,
      members: consumers.map((c) => ({ id: c.id, topics: c.topics, owned: owned[i][c.id] ?? [] })),
    })),
  );
  const again = {};
  const next = {};
  for (const [i, strategy] of eager.entries()) {
    const ids = watched(owned[i], assigned[i], 'C501');
    next[strategy] = expected(owned[i], assigned[i], ids);
    const m = await metrics(page, strategy);
    again[strategy] = { spread: m.spread, moved: parseInt(m.moved, 10), rows: await rows(page, strategy, ids) };
  }
  assert.ok(next.sticky.moved > 0);
  assert.deepEqual(again, next, 'the next edit');
  assert.deepEqual(await opened(page, 'sticky', 'C501'), assigned[2].C501);

  // Undo paints the step before again, without asking the worker; a member opened in it is
  // computed anew from that step's own scenario and history.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await resultsShown(page, SLOW);
  assert.deepEqual(await opened(page, 'sticky', 'C500'), want.opened, 'a member opened after undo');
  assert.deepEqual(errors, []);
  await page.close();
});

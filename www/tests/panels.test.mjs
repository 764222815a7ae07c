// The strategy panels at real sizes: a group too big for chips is summarised (its figures and an
// opened member's chips are what `kap show --json` says of the group opened), its member rows are
// virtualised and searchable; racks are visible on rows and chips; the rounds are numbered from 1.
// (The worker keeps a big group's history, not the export: the diff of a big group is not compared.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRATEGIES, field, metrics, openPlayground, panelSelector, useBrowser } from './browser.mjs';
import { bigGroup } from './group.mjs';
import { chipsOf, link, show, showPreset } from './kap.mjs';

const env = useBrowser();

const panel = panelSelector;

/** Opens a scenario file's text in the page, through its share link. */
function openScenario(text) {
  const url = link(text, env.url);
  return openPlayground(env, url.slice(env.url.length));
}

/** `topics` topics of `partitions`, `consumers` consumers `C0`… subscribing to all. */
function bigScenario(topics, partitions, consumers) {
  const names = Array.from({ length: topics }, (_, i) => `t${i}`);
  return JSON.stringify({
    version: 1,
    title: `${topics * partitions} partitions, ${consumers} consumers`,
    topics: names.map((name) => ({ name, partitions })),
    consumers: Array.from({ length: consumers }, (_, i) => ({ id: `C${i}`, topics: names })),
  });
}

test('a group too big for chips: figures, rows and an opened member are what kap show says', async () => {
  // 10,000 partitions, 300 consumers: above the chip limit.
  const text = bigScenario(20, 500, 300);
  const { page, errors } = await openScenario(text);
  await page.waitForSelector(`${panel('range')} .big-figures`, { timeout: 60_000 });
  const shown = show(text);
  for (const strategy of STRATEGIES) {
    const r = shown.strategies[strategy];
    const counts = Object.values(r.metrics.counts);
    const [max, min] = [Math.max(...counts), Math.min(...counts)];
    const m = await metrics(page, strategy);
    assert.equal(m.spread, `${r.metrics.spread} (max ${max}, min ${min})`, strategy);
    assert.equal(await page.$$eval(`${panel(strategy)} [data-partition]`, (e) => e.length), 0, `${strategy}: no chips`);

    // The heaviest members, most first (ties by id), as the chart's figures list them.
    const heaviest = Object.entries(r.metrics.counts)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .slice(0, 5)
      .map(([id, n]) => `${id} (${n})`)
      .join(', ');
    const figures = await page.$$eval(`${panel(strategy)} .big-figures > div`, (divs) =>
      Object.fromEntries(divs.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])),
    );
    assert.equal(figures.heaviest, heaviest, strategy);

    // Only the rows in view are in the DOM, each with its member's count.
    const rows = await page.$$eval(`${panel(strategy)} [data-member]`, (rows) =>
      rows.map((row) => [row.dataset.member, Number(row.querySelector('.count').textContent)]),
    );
    assert.ok(rows.length > 5 && rows.length <= 30, `${strategy}: ${rows.length} rows in the DOM`);
    for (const [id, count] of rows) assert.equal(count, r.metrics.counts[id], `${strategy} ${id}`);
  }

  // Opening a member brings its chips back, in Kafka's order.
  const sticky = panel('sticky');
  const first = await page.$eval(`${sticky} [data-member]`, (row) => row.dataset.member);
  await page.click(`${sticky} [data-member="${first}"] button.open-member`);
  const opened = `${sticky} [data-opened-member="${first}"]`;
  await page.waitForSelector(`${opened} [data-partition]`);
  const chips = await page.$$eval(`${opened} [data-partition]`, (els) => els.map((e) => e.textContent));
  assert.deepEqual(chips, chipsOf(shown.strategies.sticky.assignment[first]));
  assert.deepEqual(errors, []);
  await page.close();
});

test('scrolling and searching a big group keep the DOM small and find any member', async () => {
  const text = bigScenario(20, 500, 300);
  const { page, errors } = await openScenario(text);
  const range = panel('range');
  const ids = Array.from({ length: 300 }, (_, i) => `C${i}`).sort();
  await page.waitForSelector(`${range} [data-member="${ids[0]}"]`, { timeout: 60_000 });
  assert.equal(await page.$(`${range} [data-member="${ids.at(-1)}"]`), null, 'the last row is not rendered yet');

  // Scrolled to the bottom: the last members are rendered, the first ones are gone.
  await page.$eval(`${range} .member-scroll`, (list) => {
    list.scrollTop = list.scrollHeight;
  });
  await page.waitForSelector(`${range} [data-member="${ids.at(-1)}"]`);
  assert.equal(await page.$(`${range} [data-member="${ids[0]}"]`), null);
  assert.ok((await page.$$(`${range} [data-member]`)).length <= 30);

  // A member far down, by its id: the only row left, and Enter opens it.
  const search = page.locator(`${range} input[type="search"]`);
  await search.fill('C287');
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 1, `${range} [data-member]`);
  assert.ok(await page.$(`${range} [data-member="C287"]`));
  assert.equal(await page.textContent(`${range} .member-search .hint`), '1 of 300 members match');
  await search.press('Enter');
  await page.waitForSelector(`${range} [data-opened-member="C287"] [data-partition]`);
  const shown = show(text);
  const chips = await page.$$eval(`${range} [data-opened-member="C287"] [data-partition]`, (els) =>
    els.map((e) => e.dataset.partition),
  );
  assert.deepEqual(chips, chipsOf(shown.strategies.range.assignment.C287));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Find a member empties as Find a consumer does: Escape or Clear, the count and every row back', async () => {
  const text = bigScenario(20, 500, 300);
  const { page, errors } = await openScenario(text);
  const range = panel('range');
  await page.waitForSelector(`${range} [data-member]`, { timeout: 60_000 });
  const search = page.getByRole('searchbox', { name: 'Find a member in range', exact: true });
  const status = page.locator(`${range} .member-search .hint`);
  const rows = () => page.$$eval(`${range} [data-member]`, (els) => els.map((e) => e.dataset.member));
  const all = await rows();
  const clear = page.getByRole('button', { name: 'Clear: Find a member in range', exact: true });
  assert.equal(await clear.count(), 0, 'nothing typed, nothing to clear');
  for (const how of ['Escape', 'Clear']) {
    await search.fill('C28');
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 11, `${range} [data-member]`);
    assert.equal(await status.textContent(), '11 of 300 members match');
    if (how === 'Escape') await search.press('Escape');
    else await clear.click();
    assert.equal(await search.inputValue(), '', how);
    await page.waitForFunction((n) => document.querySelector(n).textContent === '300 members', `${range} .member-search .hint`);
    assert.deepEqual(await rows(), all, `${how}: the rows of the whole group, from the top`);
    // The focus stays in the field, to type the next search.
    assert.equal(await search.evaluate((input) => input === document.activeElement), true, how);
    assert.equal(await clear.count(), 0, `${how}: the Clear button goes with the text`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("an opened member's chips are the version on screen's: after an edit, the worker's answer for it", async () => {
  // Range ignores the previous assignment, so kap show of the edited file is the reference. With
  // 500 partitions a topic over 300 members, the first 200 by id take two; one more partition of t0
  // gives the 201st a second one of t0.
  const text = bigScenario(20, 500, 300);
  const { page, errors } = await openScenario(text);
  const range = panel('range');
  const member = Array.from({ length: 300 }, (_, i) => `C${i}`).sort()[200];
  await page.waitForSelector(`${range} .member-search input[type="search"]`, { timeout: 60_000 });
  await page.locator(`${range} input[type="search"]`).fill(member);
  await page.click(`${range} [data-member="${member}"] button.open-member`);
  const opened = `${range} [data-opened-member="${member}"] [data-partition]`;
  await page.waitForSelector(opened);
  const chips = () => page.$$eval(opened, (els) => els.map((e) => e.dataset.partition));
  const before = chipsOf(show(text).strategies.range.assignment[member]);
  assert.deepEqual(await chips(), before);
  // Sticky's answer needs the group's history, which only the worker keeps: a member opened there
  // keeps every partition it owned after the edit (each is within the new quota of 33 or 34).
  const sticky = panel('sticky');
  const stuck = await page.$eval(`${sticky} [data-member]`, (row) => row.dataset.member);
  await page.click(`${sticky} [data-member="${stuck}"] button.open-member`);
  const stuckOpened = `${sticky} [data-opened-member="${stuck}"]`;
  await page.waitForSelector(`${stuckOpened} [data-partition]`);
  const stuckChips = () => page.$$eval(`${stuckOpened} [data-partition]`, (els) => els.map((e) => e.dataset.partition));
  const owned = await stuckChips();
  assert.deepEqual(owned, chipsOf(show(text).strategies.sticky.assignment[stuck]));

  await page.getByRole('button', { name: 'Partitions of t0 plus one', exact: true }).click();
  const grown = JSON.parse(text);
  grown.topics[0].partitions += 1;
  const after = chipsOf(show(JSON.stringify(grown)).strategies.range.assignment[member]);
  assert.equal(after.length, before.length + 1, 'the edit gives this member one more partition');
  await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n, [opened, after.length], {
    timeout: 60_000,
  });
  assert.deepEqual(await chips(), after);
  assert.equal(await page.$(`${range} [data-opened-member="${member}"] .error`), null);
  await page.waitForFunction(
    (sel) => {
      const spans = [...document.querySelectorAll(`${sel} header span`)];
      const count = spans.find((s) => / partitions$/.test(s.textContent));
      return count && document.querySelectorAll(`${sel} [data-partition]`).length === parseInt(count.textContent, 10);
    },
    stuckOpened,
    { timeout: 60_000 },
  );
  const kept = await stuckChips();
  assert.ok(kept.length === owned.length || kept.length === owned.length + 1, `${stuck}: ${kept.length} partitions`);
  assert.deepEqual(owned.filter((chip) => !kept.includes(chip)), [], `${stuck} keeps what it owned`);
  assert.equal(await page.$(`${stuckOpened} .error`), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('racks are visible: each member its rack, each chip read across racks marked in words', async () => {
  const { text, shown } = showPreset('rack-aware');
  const { page, errors } = await openScenario(text);
  const racks = Object.fromEntries(JSON.parse(text).consumers.map((c) => [c.id, `rack ${c.rack}`]));
  for (const strategy of STRATEGIES) {
    await page.waitForSelector(`${panel(strategy)} [data-member]`);
    const rows = await page.$$eval(`${panel(strategy)} [data-member]`, (rows) =>
      Object.fromEntries(rows.map((row) => [row.dataset.member, row.querySelector('.rack')?.textContent])),
    );
    assert.deepEqual(rows, racks, strategy);
    const across = await page.$$eval(`${panel(strategy)} [data-partition][data-cross-rack]`, (chips) =>
      chips.map((c) => c.title),
    );
    const crossRack = shown.strategies[strategy].metrics.cross_rack;
    assert.equal(across.length, crossRack, strategy);
    for (const title of across) assert.match(title, /: (kept|added), read across racks$/);
    assert.equal((await metrics(page, strategy))['cross-rack'], String(crossRack), strategy);
  }
  // Roundrobin ignores racks: six of the nine partitions are read across zones.
  assert.equal(shown.strategies.roundrobin.metrics.cross_rack, 6);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a rebalance in two rounds lists them from round 1, with no list numbers beside them', async () => {
  const { page, errors } = await openPlayground(env);
  await page.getByRole('button', { name: 'A consumer joins', exact: true }).click();
  const rounds = `${panel('cooperative-sticky')} .timeline li`;
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 2, rounds);
  const texts = await page.$$eval(rounds, (lis) => lis.map((li) => li.textContent));
  assert.match(texts[0], /^round 1 · generation \d+ /);
  assert.match(texts[1], /^round 2 · generation \d+ follow-up/);
  const markers = await page.$$eval(rounds, (lis) => lis.map((li) => getComputedStyle(li).listStyleType));
  assert.deepEqual(markers, ['none', 'none']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an edit re-renders the member rows it changes and no other (render counts of a debug build)', async (t) => {
  const { page, errors } = await openScenario(bigGroup(12, 10));
  const counts = () =>
    page.evaluate(() => ({
      rows: Number(document.documentElement.dataset.rendersMemberrow ?? NaN),
      panels: Number(document.documentElement.dataset.rendersStrategypanel ?? NaN),
    }));
  if (Number.isNaN((await counts()).rows)) {
    t.skip('render counts exist in debug builds only: trunk build --dist DIR, then PLAYGROUND_DIST=DIR');
    await page.close();
    return;
  }
  /** Every rendered row's HTML, by panel and member. */
  const rows = () =>
    page.$$eval('section[data-strategy] [data-member]', (rows) =>
      Object.fromEntries(rows.map((r) => [`${r.closest('section').dataset.strategy}/${r.dataset.member}`, r.outerHTML])),
    );
  const saved = (check) =>
    page.waitForFunction(`(${check})(JSON.parse(localStorage.getItem('kafka-assignor-playground/scenario') ?? '{}'))`);
  // The first edit turns the group's history on (the diff appears): every row changes once.
  await field(page, 'client.rack of consumer-3').fill('r1');
  await saved((s) => s.consumers?.[3].rack === 'r1');

  // One consumer's rack: its row in each panel, nothing else.
  let before = await counts();
  await field(page, 'client.rack of consumer-3').fill('r2');
  await saved((s) => s.consumers?.[3].rack === 'r2');
  await page.waitForSelector(`${panelSelector('range')} [data-member="consumer-3"] .rack:text-is("rack r2")`);
  let after = await counts();
  assert.equal(after.rows - before.rows, 4, 'consumer-3 in each panel');

  // A topic grows: exactly the rows whose partitions changed re-render.
  const shown = await rows();
  before = after;
  await page.getByRole('button', { name: 'Partitions of orders-5 plus one', exact: true }).click();
  await page.waitForSelector(`${panelSelector('range')} [data-partition="orders-5-2"]`);
  after = await counts();
  const now = await rows();
  const changed = Object.keys(now).filter((k) => now[k] !== shown[k]);
  t.diagnostic(`orders-5 grows: ${after.rows - before.rows} row renders, ${changed.length} rows changed`);
  assert.ok(changed.length > 0 && changed.length < Object.keys(now).length);
  assert.equal(after.rows - before.rows, changed.length);
  assert.deepEqual(errors, []);
  await page.close();
});

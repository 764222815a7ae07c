// "Find a consumer": beyond the rows the opening mounts, the consumers editor has a search field
// that filters its rows by member.id (or group.instance.id), case aside. The filter is the view's:
// edits of a filtered row are the edits of any row (the panels equal `kap batch`), and the filter
// is in no link, save or undo step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRATEGIES, field, focusedName, metrics, openPlayground, panelSelector, resultsShown, useBrowser } from './browser.mjs';
import { Group } from './group.mjs';
import { consumerTopics, link } from './kap.mjs';
import { mountRows } from './rows.mjs';

const env = useBrowser();

const TOPICS = { t0: 40, t1: 40, t2: 40, t3: 40 };
const ids = (from, to) => Array.from({ length: to - from }, (_, i) => `consumer-${from + i}`);
/** 500 consumers on four topics (a checkbox per topic in each row): every third on the first two only. */
const group = () => new Group(TOPICS, ids(0, 500).map((id, i) => ({ id, topics: i % 3 ? ['t0', 't1', 't2', 't3'] : ['t0', 't1'] })));

const rows = (page) => page.$$eval('section.consumers-editor [data-consumer]', (rows) => rows.map((r) => r.dataset.consumer));
const searchBox = (page) => page.getByRole('searchbox', { name: 'Find a consumer by member.id or group.instance.id', exact: true });
const STATUS = 'section.consumers-editor .search-field .hint';
/** Checks that the search field's count says `want` (waiting for it: each key renders in a task of its own). */
async function statusSays(page, want) {
  await page.waitForFunction(([selector, want]) => document.querySelector(selector)?.textContent === want, [STATUS, want], { timeout: 10_000 }).catch(() => {});
  assert.equal(await page.textContent(STATUS), want);
}
/** Checks that the list shows its first rows again, from consumer-0: a few at once, more as the page nears them. */
async function firstRowsBack(page) {
  await page.waitForFunction(() => {
    const shown = document.querySelectorAll('section.consumers-editor [data-consumer]');
    return shown[0]?.dataset.consumer === 'consumer-0' && shown.length >= 5;
  });
  const back = await rows(page);
  assert.ok(back.length >= 5, `${back}`);
  assert.deepEqual(back, ids(0, back.length));
}
/** Does `act` (an edit, an undo) and waits for the answer to the version it makes. */
async function edit(page, act) {
  const before = await page.getAttribute('[data-version]', 'data-version');
  await act();
  await page.waitForFunction((before) => document.querySelector('[data-version]').dataset.version !== before, before);
  await resultsShown(page);
}

/** The address bar's fragment once the saved copy, written with it, has `id` subscribed to `topics`. */
async function linkOnceSaved(page, id, topics) {
  for (let tries = 0; tries < 150; tries++) {
    const text = await page.evaluate(() => localStorage.getItem('kafka-assignor-playground/scenario'));
    if (text && consumerTopics(JSON.parse(text), id).join() === topics.join()) {
      // The fragment is written in an idle moment of its own, beside the saved copy.
      await page.waitForTimeout(1500);
      return page.evaluate(() => location.hash);
    }
    await page.waitForTimeout(200);
  }
  assert.fail(`the saved copy never had ${id} on ${topics}`);
}
const panel = panelSelector;

/** A member's partitions in a panel, opened from the panel's own search box. */
async function opened(page, strategy, id) {
  await page.locator(`${panel(strategy)} input[type="search"]`).fill(id);
  await page.click(`${panel(strategy)} [data-member="${id}"] button.open-member`);
  const chips = `${panel(strategy)} [data-opened-member="${id}"] [data-partition]`;
  await page.waitForSelector(`${panel(strategy)} [data-opened-member="${id}"]`);
  await page.waitForFunction((chips) => document.querySelectorAll(chips).length > 0, chips).catch(() => {});
  const shown = await page.$$eval(chips, (els) => els.map((e) => e.dataset.partition));
  await page.click(`${panel(strategy)} [data-opened-member="${id}"] button.close`);
  return shown;
}

/** The spread and the moves from `before` to `after` (strategy → member → chips), as a panel words them. */
function figures(before, after) {
  const counts = Object.values(after).map((list) => list.length);
  const [max, min] = [Math.max(...counts), Math.min(...counts)];
  const owner = new Map(Object.entries(before).flatMap(([m, list]) => list.map((p) => [p, m])));
  const moved = Object.entries(after).flatMap(([m, list]) => list.filter((p) => owner.has(p) && owner.get(p) !== m));
  return { spread: `${max - min} (max ${max}, min ${min})`, moved: moved.length };
}

test('500 consumers: a filter typed shows the consumers it finds; a filtered row edits as any row (the panels equal kap batch); the filter is in no link or undo step; Escape brings every row back', async () => {
  const model = group();
  const url = link(model.scenarioText(), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  await statusSays(page, '500 consumers');
  assert.deepEqual(await rows(page), ids(0, 10));
  const hash = await page.evaluate(() => location.hash);

  // Typed in capitals: case aside, consumer-12 and consumer-120 to 129. The first rows are
  // mounted at once, the others as the list's end nears the window.
  await searchBox(page).pressSequentially('SUMER-12');
  await statusSays(page, '11 of 500 consumers match');
  await mountRows(page, 11);
  assert.deepEqual(await rows(page), ['consumer-12', ...ids(120, 130)]);
  assert.equal(await page.locator('section.consumers-editor .more-consumers').count(), 0);
  // Not an edit: nothing for the link or the saved work to write (they are written once edits pause).
  await page.waitForTimeout(1000);
  assert.equal(await page.evaluate(() => location.hash), hash, 'the link as it opened');
  assert.equal(await page.getByRole('button', { name: 'Undo', exact: true }).isDisabled(), true, 'nothing to undo');

  // consumer-125 unsubscribes from t1, from its filtered row: the row stays, the focus in it.
  const previous = model.expected(null);
  const box = page.getByRole('checkbox', { name: 'consumer-125 subscribes to t1', exact: true });
  await edit(page, () => box.click());
  model.members[125].topics = model.members[125].topics.filter((t) => t !== 't1');
  assert.equal(await box.isChecked(), false);
  assert.equal(await focusedName(page), 'consumer-125 subscribes to t1');
  assert.deepEqual(await rows(page), ['consumer-12', ...ids(120, 130)]);
  // What kap batch assigns the edited group, each member owning its assignment before the edit.
  const after = model.expected(previous);
  for (const strategy of STRATEGIES) {
    const m = await metrics(page, strategy);
    assert.deepEqual({ spread: m.spread, moved: parseInt(m.moved, 10) }, figures(previous[strategy], after[strategy]), strategy);
    for (const id of ['consumer-125', 'consumer-126', 'consumer-0']) {
      assert.deepEqual(await opened(page, strategy, id), after[strategy][id], `${strategy}: ${id}`);
    }
  }
  assert.ok(after.range['consumer-125'].every((chip) => !chip.startsWith('t1-')));

  // A consumer renamed out of the filter stays where it is, its field focused, until the filter changes.
  const name = field(page, 'member.id of consumer 128');
  await edit(page, () => name.fill('renamed'));
  assert.deepEqual(await rows(page), ['consumer-12', ...ids(120, 127), 'renamed', ...ids(128, 130)]);
  assert.equal(await page.evaluate(() => document.activeElement.closest('[data-consumer]').dataset.consumer), 'renamed');
  await edit(page, () => page.getByRole('button', { name: 'Undo', exact: true }).click());
  assert.deepEqual(await rows(page), ['consumer-12', ...ids(120, 130)]);

  // The filter is no edit: one undo step (the unsubscribe) is left, and undoing it keeps the filter.
  await edit(page, () => page.getByRole('button', { name: 'Undo', exact: true }).click());
  assert.equal(await box.isChecked(), true);
  assert.equal(await page.getByRole('button', { name: 'Undo', exact: true }).isDisabled(), true, 'no step for the filter');
  assert.equal(await searchBox(page).inputValue(), 'SUMER-12');
  await edit(page, () => page.getByRole('button', { name: 'Redo', exact: true }).click());
  // The link written after the edit opens on the edited group, without the filter.
  const other = await openPlayground(env, await linkOnceSaved(page, 'consumer-125', model.members[125].topics));
  assert.equal(await searchBox(other.page).inputValue(), '');
  await statusSays(other.page, '500 consumers');
  assert.equal(await other.page.getByRole('checkbox', { name: 'consumer-1 subscribes to t1', exact: true }).isChecked(), true);
  await mountRows(other.page, 126);
  assert.equal(await other.page.getByRole('checkbox', { name: 'consumer-125 subscribes to t1', exact: true }).isChecked(), false);
  assert.deepEqual(other.errors, []);
  await other.page.close();

  // A consumer added under the filter is shown, though the filter does not find it.
  await edit(page, () => page.getByRole('button', { name: 'Add consumer', exact: true }).click());
  await page.waitForFunction(() => document.querySelectorAll('section.consumers-editor [data-consumer]').length === 12);
  const added = (await rows(page)).at(-1);
  assert.ok(!added.includes('sumer-12'), added);
  await statusSays(page, '12 of 501 consumers match');

  // None found: said so, and no row.
  await searchBox(page).fill('nobody');
  await statusSays(page, 'No consumer matches “nobody”');
  assert.deepEqual(await rows(page), []);

  // Escape empties it: every row back, 200 at a time, mounted as the page scrolls toward them.
  await searchBox(page).press('Escape');
  assert.equal(await searchBox(page).inputValue(), '');
  await statusSays(page, '501 consumers');
  await firstRowsBack(page);
  await mountRows(page, 200);
  assert.deepEqual(await rows(page), ids(0, 200));
  assert.equal(await page.textContent('section.consumers-editor .more-consumers .hint'), '200 of 501 consumers shown.');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Clear button empties the filter and gives the focus back to the field; "Show more" pages through the rows found', async () => {
  const url = link(group().scenarioText(), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  // consumer-1, 10 to 19, 100 to 199: 111 found, all within the first window of 200.
  await searchBox(page).fill('consumer-1');
  await statusSays(page, '111 of 500 consumers match');
  await mountRows(page, 111);
  assert.deepEqual(await rows(page), ['consumer-1', ...ids(10, 20), ...ids(100, 200)]);
  // "1" finds 176, consumer-471 among them: every row found is shown, none behind "Show more".
  await searchBox(page).fill('1');
  const found = ids(0, 500).filter((id) => id.slice('consumer-'.length).includes('1'));
  await statusSays(page, `${found.length} of 500 consumers match`);
  await mountRows(page, found.length);
  assert.deepEqual(await rows(page), found);
  assert.equal(await page.locator('section.consumers-editor .more-consumers').count(), 0);
  // "Consumer" finds every one: 200 at a time.
  await searchBox(page).fill('Consumer');
  await statusSays(page, '500 of 500 consumers match');
  await mountRows(page, 200);
  assert.deepEqual(await rows(page), ids(0, 200));
  assert.equal(await page.textContent('section.consumers-editor .more-consumers .hint'), '200 of 500 matching consumers shown.');
  await page.getByRole('button', { name: 'Show 200 more', exact: true }).click();
  await mountRows(page, 400);
  assert.deepEqual(await rows(page), ids(0, 400));
  await page.getByRole('button', { name: 'Clear: Find a consumer by member.id or group.instance.id', exact: true }).click();
  assert.equal(await searchBox(page).inputValue(), '');
  assert.equal(await page.evaluate(() => document.activeElement.type), 'search');
  await statusSays(page, '500 consumers');
  await firstRowsBack(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the filter finds ids beyond ASCII, case aside, as Unicode lowers their case (the final sigma too)', async () => {
  const odysseus = 'ὈΔΥΣΣΕΎΣ';
  const members = [...ids(0, 497), 'consumer-été', 'CONSUMER-ÉTÉ-2', odysseus].map((id) => ({ id, topics: ['t0', 't1'] }));
  const url = link(new Group(TOPICS, members).scenarioText(), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  await searchBox(page).fill('ÉtÉ');
  await statusSays(page, '2 of 500 consumers match');
  await mountRows(page, 2);
  assert.deepEqual(await rows(page), ['consumer-été', 'CONSUMER-ÉTÉ-2']);
  // Lowered, the last Σ of a word is ς: what is typed in lower case finds it.
  await searchBox(page).fill('ὀδυσσεύς');
  await statusSays(page, '1 of 500 consumers match');
  await mountRows(page, 1);
  assert.deepEqual(await rows(page), [odysseus]);
  assert.deepEqual(errors, []);
  await page.close();
});

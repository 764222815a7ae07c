// The work survives: share links round trip, bad links leave the saved work alone, a reload keeps
// the work, Export/Import JSON round trip, and undo/redo (buttons and keyboard) walk the history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  exportScenario,
  field,
  openPlayground,
  panelDetails,
  panels,
  resultsShown,
  revokedChips,
  savedScenario,
  useBrowser,
  waitForPanels,
  waitForSaved,
} from './browser.mjs';
import { kap, link, show, shownChips } from './kap.mjs';

const env = useBrowser();

/** Everything the panels show: chips, revoked chips, metrics and rounds. */
const everything = async (page) => ({
  chips: await panels(page),
  revoked: await revokedChips(page),
  details: await panelDetails(page),
});

/** Three edits from the opening preset: T1 to 7, a consumer joins, C2 drops T2. */
async function edit(page) {
  await field(page, 'Partitions of T1').fill('7');
  await page.getByRole('button', { name: 'Add consumer', exact: true }).click();
  await page.getByLabel('C2 subscribes to T2', { exact: true }).click();
  await page.waitForSelector('[data-consumer="C0"]');
  return waitForSaved(page, { T1: 7, T2: 3 }, { C1: ['T1', 'T2'], C2: ['T1'], C0: ['T1', 'T2'] });
}

const banner = (page) => page.$eval('.banner[role=alert] span', (e) => e.textContent).catch(() => null);

test('a share link opens the same scenario in a fresh browser, and kap makes the same link', async () => {
  const { page, errors } = await openPlayground(env);
  const saved = await edit(page);
  // The link written into the address bar after the edit is the one the dialog offers.
  const href = page.url();
  await page.getByRole('button', { name: 'Share link', exact: true }).click();
  assert.equal(await page.inputValue('[role=dialog][aria-label="Share link"] input.link'), href);
  assert.match(await page.textContent('[role=dialog][aria-label="Share link"] .length'), new RegExp(`^${href.length} characters`));
  // kap encodes the exported scenario (and the saved one) to the very same link.
  const exported = await exportScenario(page);
  assert.equal(exported, saved);
  assert.equal(link(exported, env.url), href);
  const before = await everything(page);
  assert.deepEqual(before.chips, shownChips(show(exported)));

  // A new context: no saved work, only the link.
  const other = await openPlayground(env, href.slice(env.url.length));
  await waitForPanels(other.page, before.chips);
  assert.deepEqual(await everything(other.page), before);
  assert.equal(await banner(other.page), null);
  assert.deepEqual(other.errors, []);
  await other.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a reload keeps the work; malformed, truncated and future links leave it alone', async () => {
  const { page, errors } = await openPlayground(env);
  const saved = await edit(page);
  const before = await everything(page);
  const good = page.url().slice(env.url.length);
  // Read once every panel is in (they come one per frame).
  await page.reload();
  await resultsShown(page);
  assert.deepEqual(await everything(page), before, 'after a reload');
  // Without a fragment the page opens on the saved work (localStorage), not on the first preset.
  await page.goto(env.url);
  await resultsShown(page);
  assert.deepEqual(await everything(page), before, 'without a fragment');
  assert.equal(await banner(page), null);

  const cases = [
    ['#v1.garbage', /^this link is damaged, perhaps cut short when it was copied \(.*\)\. Your saved work is shown instead, unchanged\.$/],
    [good.slice(0, Math.floor(good.length / 2)), /^this link is damaged, perhaps cut short when it was copied \(.*\)\. Your saved work is shown instead, unchanged\.$/],
    ['#v3.abc', /^this link was made by a newer version of the playground \(format 3; this one reads up to 2\)\. Your saved work is shown instead, unchanged\.$/],
    ['#hello', /^this link does not hold a scenario\. Your saved work is shown instead, unchanged\.$/],
  ];
  for (const [fragment, message] of cases) {
    // about:blank first: from the playground itself, a new fragment is not a new page load.
    await page.goto('about:blank');
    await page.goto(env.url + fragment);
    await page.waitForSelector('.banner[role=alert]');
    await resultsShown(page);
    assert.match(await banner(page), message, fragment);
    assert.deepEqual(await everything(page), before, `${fragment}: the saved work is not shown`);
    assert.equal(await savedScenario(page), saved, `${fragment}: the saved work changed`);
  }
  // The address bar gets the saved work's link back (after the ~300 ms debounce); a reload then
  // shows the saved work without a banner.
  await page.waitForFunction(() => location.hash !== '#hello');
  await page.reload();
  await resultsShown(page);
  assert.equal(await banner(page), null, 'banner after reload');
  assert.deepEqual(await everything(page), before, 'after reload');
  assert.equal(await savedScenario(page), saved);
  // Dismiss closes the banner.
  await page.goto('about:blank');
  await page.goto(env.url + '#v3.abc');
  await page.click('.banner[role=alert] button:text-is("Dismiss")');
  await page.waitForFunction(() => !document.querySelector('.banner'));
  assert.deepEqual(errors, []);
  await page.close();
});

test(
  'a share link pasted into a tab already on the playground opens',
  async () => {
    const { page, errors } = await openPlayground(env);
    const url = link(kap(['preset', 'sticky-crash-c3']), env.url);
    await page.goto(url); // same document: only the fragment changes
    await page
      .waitForFunction(() => document.querySelector('section.intro h2')?.textContent.startsWith('Sticky: C3'), null, { timeout: 1_000 })
      .catch(() => {});
    assert.equal(await page.$eval('section.intro h2', (e) => e.textContent), 'Sticky: C3 crashes, C1 and C2 keep what they had');
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('Import JSON opens a scenario file, as kap shows it', async () => {
  const { page, errors } = await openPlayground(env);
  const text = kap(['preset', 'sticky-crash-c1']);
  const dir = mkdtempSync(join(tmpdir(), 'kap-import-'));
  try {
    const file = join(dir, 'crash.json');
    writeFileSync(file, text);
    await page.setInputFiles('input[type=file]', file);
    const expected = shownChips(show(text));
    await waitForPanels(page, expected);
    assert.deepEqual(await panels(page), expected);
    assert.equal(await page.$eval('section.intro h2', (e) => e.textContent), 'Sticky: C1 crashes with four topics of two partitions');
    // A file that is not a scenario: a banner, and the work stays.
    writeFileSync(file, '{"topics": 3}');
    await page.setInputFiles('input[type=file]', file);
    await page.waitForSelector('.banner[role=alert]');
    assert.match(await banner(page), /^That file could not be opened: /);
    assert.deepEqual(await panels(page), expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link too long to share is not offered: the dialog says so and exports the JSON file', async () => {
  const { page, errors } = await openPlayground(env);
  // 2,500 consumers whose ids hardly deflate (xorshift letters): a link of about 60,000 characters.
  let seed = 7;
  const letter = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return String.fromCharCode(97 + ((seed >>> 0) % 26));
  };
  const ids = Array.from({ length: 2500 }, () => Array.from({ length: 30 }, letter).join(''));
  const text = JSON.stringify({ topics: [{ name: 't', partitions: 1 }], consumers: ids.map((id) => ({ id, topics: ['t'] })) });
  const dir = mkdtempSync(join(tmpdir(), 'kap-long-link-'));
  try {
    const file = join(dir, 'long.json');
    writeFileSync(file, text);
    await page.setInputFiles('input[type=file]', file);
    await page.waitForFunction((id) => (localStorage.getItem('kafka-assignor-playground/scenario') ?? '').includes(id), ids[0]);
    await page.getByRole('button', { name: 'Share link', exact: true }).click();
    const dialog = page.locator('[role=dialog][aria-label="Share link"]');
    const message = await dialog.locator('.too-long').textContent();
    const length = Number(message.match(/^the link would be (\d+) characters/)?.[1]);
    assert.ok(length > 40000, message);
    // kap link refuses it too, with the same length.
    const refused = (() => {
      try {
        kap(['link', '--base', env.url, file], undefined);
        return '';
      } catch (e) {
        return String(e.stderr);
      }
    })();
    assert.equal(refused.trim(), `kap: link: ${message.replace(/\.$/, '')}`);
    assert.match(message, /too long to share: chat tools cut links over 40000 characters\. Share the scenario as a JSON file instead\.$/);
    assert.equal(await dialog.locator('input.link').count(), 0);
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export JSON' }).click()]);
    const { readFile } = await import('node:fs/promises');
    const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.deepEqual(exported.consumers.map((c) => c.id), ids);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('undo and redo, with the buttons and with Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y', async () => {
  const { page, errors } = await openPlayground(env);
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  const redo = page.getByRole('button', { name: 'Redo', exact: true });
  const s0 = await everything(page);
  assert.equal(await undo.isDisabled(), true);
  assert.equal(await redo.isDisabled(), true);

  await page.getByRole('button', { name: 'Partitions of T1 plus one', exact: true }).click();
  await page.waitForSelector('[data-partition="T1-5"]');
  const s1 = await everything(page);
  await page.getByRole('button', { name: 'Add consumer', exact: true }).click();
  await page.waitForSelector('[data-member="C0"]');
  const s2 = await everything(page);
  assert.notDeepEqual(s1, s0);
  assert.notDeepEqual(s2, s1);

  const expectState = async (want, what) => {
    await waitForPanels(page, want.chips);
    assert.deepEqual(await everything(page), want, what);
  };
  await undo.click();
  await expectState(s1, 'Undo button');
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('Control+z');
  await expectState(s0, 'Ctrl+Z');
  assert.equal(await undo.isDisabled(), true);
  assert.equal(await field(page, 'Partitions of T1').inputValue(), '5', 'the field shows the undone count');
  await page.keyboard.press('Control+Shift+z');
  await expectState(s1, 'Ctrl+Shift+Z');
  await redo.click();
  await expectState(s2, 'Redo button');
  assert.equal(await redo.isDisabled(), true);
  await page.keyboard.press('Control+z');
  await expectState(s1, 'Ctrl+Z again');
  await page.keyboard.press('Control+y');
  await expectState(s2, 'Ctrl+Y');

  // A new edit after an undo drops what could be redone.
  await undo.click();
  await expectState(s1, 'Undo before a new edit');
  await page.getByRole('button', { name: 'Partitions of T2 plus one', exact: true }).click();
  await page.waitForSelector('[data-partition="T2-3"]');
  assert.equal(await redo.isDisabled(), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test(
  'Ctrl+Z in a text field undoes the edit, not also the browser\'s text undo',
  async () => {
    const { page, errors } = await openPlayground(env);
    const name = field(page, 'Name of topic 1');
    await name.fill('orders');
    await page.waitForSelector('[data-partition="orders-0"]');
    await name.press('Control+z');
    await page.waitForSelector('[data-partition="T1-0"]');
    // The field shows the undone name, and the shortcut's default (the browser's own text undo)
    // was prevented: no "Unable to preventDefault inside passive event listener" error.
    assert.equal(await name.inputValue(), 'T1');
    assert.deepEqual(errors, []);
    await page.close();
  },
);

// The user's work is never lost: a link opened over saved work keeps it one click away, a full
// storage says the work is not saved and offers the JSON file, unreadable saved work is kept as it
// is and offered as a file, a number is applied only whole, and oversized links, files and texts
// are refused quickly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  collectErrors,
  field,
  fieldAlert,
  panels,
  resultsShown,
  savedScenario,
  useBrowser,
  waitForPanels,
  waitForSaved,
  panelSelector,
} from './browser.mjs';
import { kap, link } from './kap.mjs';

const env = useBrowser();

const WORK = 'kafka-assignor-playground/scenario';
const INDEX = 'kafka-assignor-playground/history';

/** A page in `context` (a browser profile: its storage shared by its pages) at `suffix`. */
async function openIn(context, suffix = '') {
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(env.url + suffix);
  await page.waitForSelector('section[data-strategy]', { timeout: 30_000 });
  return { page, errors };
}

const bannerText = (page, which) => page.textContent(`.banner[data-banner="${which}"] > span:first-child`);
const bannerButton = (page, which, name) =>
  page.locator(`.banner[data-banner="${which}"]`).getByRole('button', { name, exact: true });

/** The history's index as stored. */
const index = (page) => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null'), INDEX);

/** The scenario a `#v1.` fragment holds. */
const decodeFragment = (hash) =>
  JSON.parse(inflateRawSync(Buffer.from(hash.replace(/^#?v1\./, ''), 'base64url')).toString('utf8'));

/** A `#v1.` fragment for a scenario object. */
const encodeFragment = (scenario) =>
  '#v1.' + deflateRawSync(Buffer.from(JSON.stringify(scenario)), { level: 9 }).toString('base64url');

async function download(page, click) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFile(await file.path(), 'utf8');
}

test('a link opened over saved work keeps it: Switch back brings it back, and the link is kept in turn', async () => {
  const context = await env.browser.newContext();
  const { page, errors } = await openIn(context);
  await field(page, 'Partitions of T1').fill('7');
  const mine = await waitForSaved(page, { T1: 7, T2: 3 });
  const myPanels = await panels(page);

  // A colleague's link, opened in a new tab of the same browser.
  const url = link(kap(['preset', 'sticky-crash-c3']), env.url);
  const other = await openIn(context, url.slice(env.url.length));
  await other.page.waitForSelector('.banner[data-banner="previous"]');
  assert.equal(
    await bannerText(other.page, 'previous'),
    'Opened “Sticky: C3 crashes, C1 and C2 keep what they had”. Your previous scenario, ' +
      '“Range: why one consumer carries 5 partitions and the other 3”, is kept.',
  );
  // Once the link's scenario is saved, the previous work is kept, exactly as it was saved.
  await other.page.waitForFunction((key) => JSON.parse(localStorage.getItem(key) ?? '{}').kept?.length === 1, INDEX);
  const kept = (await index(other.page)).kept[0];
  assert.equal(kept.title, 'Range: why one consumer carries 5 partitions and the other 3');
  assert.equal(await other.page.evaluate((id) => localStorage.getItem(`kafka-assignor-playground/kept/${id}`), kept.id), mine);
  assert.match(await savedScenario(other.page), /Sticky: C3 crashes/);

  await bannerButton(other.page, 'previous', 'Switch back').click();
  await waitForPanels(other.page, myPanels);
  assert.deepEqual(await panels(other.page), myPanels);
  assert.equal(await other.page.$('.banner[data-banner="previous"]'), null);
  await waitForSaved(other.page, { T1: 7, T2: 3 });
  assert.equal(await savedScenario(other.page), mine);
  // The link's scenario is one click away in its turn.
  await other.page.getByRole('button', { name: 'Recent (1)', exact: true }).click();
  const entry = other.page.locator('[role=dialog][aria-label="Recent scenarios"] .recent-entry');
  assert.match(await entry.textContent(), /^Sticky: C3 crashes, C1 and C2 keep what they hadfrom a link · saved /);
  await entry.click();
  await other.page.waitForFunction(() => document.querySelector('section.intro h2')?.textContent.startsWith('Sticky: C3'));
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
  await context.close();
});

test('a full storage says the work is not saved and why, and Export JSON keeps it', async () => {
  const context = await env.browser.newContext();
  const { page, errors } = await openIn(context);
  await waitForSaved(page, { T1: 5, T2: 3 });
  // Another application of the same site fills the storage.
  const filled = await page.evaluate(() => {
    let size = 1 << 20;
    let n = 0;
    while (size >= 1) {
      try {
        localStorage.setItem(`other-app/${n++}`, 'x'.repeat(size));
      } catch {
        size = Math.floor(size / 2);
      }
    }
    return n;
  });
  assert.ok(filled > 1);
  await page.getByRole('button', { name: 'Add consumer', exact: true }).click();
  await page.waitForSelector('.banner[data-banner="unsaved"]');
  assert.match(
    await bannerText(page, 'unsaved'),
    /^Your work is not saved: this browser's storage for this site is full \(the scenario needs \d+ kB; browsers keep about 5 MB per site, less in private windows\)\. Export it as a JSON file to keep it; the page saves again as soon as it can\.$/,
  );
  assert.equal(await page.getAttribute('.banner[data-banner="unsaved"]', 'role'), 'alert');
  const exported = JSON.parse(await download(page, () => bannerButton(page, 'unsaved', 'Export JSON').click()));
  assert.deepEqual(exported.consumers.map((c) => c.id), ['C1', 'C2', 'C0']);
  // The saved work is the last one that fitted, untouched.
  assert.deepEqual(JSON.parse(await savedScenario(page)).consumers.map((c) => c.id), ['C1', 'C2']);

  // Room again: the next save goes through and the banner goes.
  await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('other-app/')).forEach((k) => localStorage.removeItem(k)));
  await page.getByRole('button', { name: 'Partitions of T2 plus one', exact: true }).click();
  await waitForSaved(page, { T1: 5, T2: 4 });
  await page.waitForFunction(() => !document.querySelector('.banner[data-banner="unsaved"]'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('saved work this version cannot read is kept as it is, offered as a file, and never written over', async () => {
  for (const [text, why] of [
    ['{"version": 3, "title": "from the future", "topics": [{"name": "t", "partitions": 1, "tiers": 2}]}', 'written by a newer version (format 3)'],
    ['{"version": 1, "title": "cut", "topics": [{"name": "T1", "parti', 'it was cut short'],
  ]) {
    const context = await env.browser.newContext();
    const { page, errors } = await openIn(context);
    await page.evaluate(([key, text]) => localStorage.setItem(key, text), [WORK, text]);
    await page.goto('about:blank');
    await page.goto(env.url);
    await page.waitForSelector('.banner[data-banner="unreadable"]');
    const message = await bannerText(page, 'unreadable');
    assert.ok(message.startsWith('Your saved work could not be opened: '), message);
    assert.ok(message.includes(why), message);
    assert.ok(message.endsWith('It is kept in this browser exactly as it was; your new work is saved beside it.'), message);
    assert.equal(await download(page, () => bannerButton(page, 'unreadable', 'Download it').click()), text);

    // Edits are saved beside it; it stays exactly as it was.
    await page.getByRole('button', { name: 'Add consumer', exact: true }).click();
    await page.waitForFunction((key) => JSON.parse(localStorage.getItem(key) ?? '{}').kept?.length === 1, INDEX);
    await page.waitForTimeout(500);
    assert.equal(await savedScenario(page), text);
    // The next visit opens the new work, and still offers the unreadable one.
    await page.goto('about:blank');
    await page.goto(env.url);
    await page.waitForSelector('.banner[data-banner="unreadable"]');
    await page.waitForSelector('[data-consumer="C0"]');
    assert.equal(await savedScenario(page), text);
    // Deleting it is the person's choice, offered once they have the file.
    await download(page, () => bannerButton(page, 'unreadable', 'Download it').click());
    await bannerButton(page, 'unreadable', 'Delete it from this browser').click();
    await page.getByRole('button', { name: 'Partitions of T2 plus one', exact: true }).click();
    await waitForSaved(page, { T1: 5, T2: 4 });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a number typed key by key is applied whole: the model, the link and the saved work never hold a prefix', async () => {
  const context = await env.browser.newContext();
  // Record every URL and every save the page writes, and the partitions the panels ever show (on
  // screen: not the copy laid out ahead with a draft's answer, ui::ahead).
  await context.addInitScript(() => {
    window.__hashes = [];
    window.__saves = [];
    window.__shown = new Set();
    const replace = history.replaceState.bind(history);
    history.replaceState = (state, title, url) => {
      window.__hashes.push(String(url).split('#')[1] ?? '');
      return replace(state, title, url);
    };
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === 'kafka-assignor-playground/scenario') window.__saves.push(value);
      return setItem.call(this, key, value);
    };
    new MutationObserver(() => {
      for (const chip of document.querySelectorAll('[data-partition^="T1-"]:not(.panels-copy:is(.ahead, .retired) *)')) {
        window.__shown.add(chip.dataset.partition);
      }
      const note = document.querySelector('.summary .note');
      if (note) window.__shown.add(note.textContent);
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const { page, errors } = await openIn(context);
  await waitForSaved(page, { T1: 5, T2: 3 });
  const before = await panels(page);
  const input = field(page, 'Partitions of T1');

  // Typed at a brisk human pace (100 ms a key): the page answers every key at once.
  await input.click();
  await input.press('Control+a');
  const started = Date.now();
  await input.pressSequentially('1000000000', { delay: 100 });
  await page.waitForFunction(() => document.querySelector('[role=alert]'));
  const typing = Date.now() - started;
  assert.ok(typing < 3_000, `typing took ${typing} ms`);
  assert.equal(await fieldAlert(page, 'Partitions of T1'), 'at most 1000000 partitions per topic');
  assert.equal(await input.inputValue(), '1000000000');
  await page.waitForTimeout(1_500); // past the pause after which a number applies

  // Then 12, key by key: applied once, as 12, never as 1.
  await input.press('Control+a');
  await input.pressSequentially('12', { delay: 100 });
  await waitForSaved(page, { T1: 12, T2: 3 });
  await page.waitForSelector(`${panelSelector('range')} [data-partition="T1-11"]`);
  assert.equal(await fieldAlert(page, 'Partitions of T1'), null);

  const { hashes, saves, shown } = await page.evaluate(() => ({
    hashes: window.__hashes,
    saves: window.__saves,
    shown: [...window.__shown],
  }));
  const counts = (list) => [...new Set(list.map((s) => s.topics.find((t) => t.name === 'T1').partitions))];
  assert.deepEqual(counts(hashes.filter((h) => h.startsWith('v1.')).map(decodeFragment)), [5, 12], 'the link');
  assert.deepEqual(counts(saves.map((s) => JSON.parse(s))), [5, 12], 'the saved work');
  const partitions = shown.filter((s) => s.startsWith('T1-')).map((s) => Number(s.slice(3)));
  assert.equal(Math.max(...partitions), 11, 'the panels');
  assert.deepEqual(shown.filter((s) => !s.startsWith('T1-')), [], 'no summarised group was ever shown');
  assert.notDeepEqual(await panels(page), before);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link with an oversized title, an oversized file and over-long texts are refused quickly with a message', async () => {
  const context = await env.browser.newContext();
  const preset = JSON.parse(kap(['preset', 'range-imbalance']));
  for (const [title, message] of [
    ['a'.repeat(60 << 20), /^this link holds more than this version opens \(at most 16 MB of scenario, 2 MB of link\)\. A preset is shown instead\.$/],
    ['a'.repeat(201), /^This link's scenario cannot run: a title has at most 200 characters\. A preset is shown instead\.$/],
  ]) {
    const fragment = encodeFragment({ ...preset, title });
    assert.ok(fragment.length < 100_000, `${fragment.length} characters`);
    // Each link in a browser of its own: the preset shown instead of the last one may be saved.
    const page = await (await env.browser.newContext()).newPage();
    const errors = collectErrors(page);
    const started = Date.now();
    await page.goto(env.url + fragment);
    await page.waitForSelector('.banner[role=alert]', { timeout: 30_000 });
    const ms = Date.now() - started;
    assert.ok(ms < 5_000, `refused after ${ms} ms`);
    assert.match(await page.textContent('.banner[role=alert] > span'), message);
    assert.deepEqual(errors, []);
    await page.close();
  }

  // Fields refuse texts longer than their limit, before anything else looks at them.
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(env.url);
  await resultsShown(page);
  const before = await panels(page);
  for (const [label, text, alert] of [
    ['Name of topic 1', 'T'.repeat(250), 'at most 249 characters here'],
    ['client.rack of C1', 'r'.repeat(40_000), 'at most 32767 characters here'],
    ['Pattern subscriptions of C1', 'p'.repeat(70_000), 'at most 65536 characters here'],
  ]) {
    await field(page, label).fill(text);
    await page.waitForFunction((l) => [...document.querySelectorAll('label.field')].some((f) => f.querySelector('.label').textContent === l && f.querySelector('[role=alert]')), label);
    assert.equal(await fieldAlert(page, label), alert, label);
  }
  // A file is refused by its size before it is read.
  const dir = mkdtempSync(join(tmpdir(), 'kap-big-'));
  try {
    const file = join(dir, 'big.json');
    writeFileSync(file, `{"title": "${'a'.repeat(17 << 20)}"}`);
    await page.setInputFiles('input[type=file]', file);
    await page.waitForSelector('.banner[role=alert]');
    assert.equal(
      await page.textContent('.banner[role=alert] > span'),
      'That file could not be opened: it is larger than 16 MB, the most a scenario may be',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(await panels(page), before);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link pasted into an open tab: the work it replaces is kept and one click away', async () => {
  const context = await env.browser.newContext();
  const { page, errors } = await openIn(context);
  await field(page, 'Partitions of T1').fill('7');
  const mine = await waitForSaved(page, { T1: 7, T2: 3 });
  await page.goto(link(kap(['preset', 'sticky-crash-c3']), env.url)); // same document: a hashchange
  await page.waitForSelector('.banner[data-banner="previous"]');
  await page.waitForFunction((key) => JSON.parse(localStorage.getItem(key) ?? '{}').kept?.length === 1, INDEX);
  assert.equal(
    await page.evaluate((id) => localStorage.getItem(`kafka-assignor-playground/kept/${id}`), (await index(page)).kept[0].id),
    mine,
  );
  await bannerButton(page, 'previous', 'Switch back').click();
  await waitForSaved(page, { T1: 7, T2: 3 });
  assert.equal(await savedScenario(page), mine);
  assert.equal((await index(page)).kept[0].origin, 'link');
  assert.deepEqual(errors, []);
  await context.close();
});

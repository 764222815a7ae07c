// Import from Kafka and the Configuration section: a paste of kafka-consumer-groups.sh output
// becomes the same scenario as `kap import` (same panels as `kap show`), with the same notes and
// unread lines; the configuration shown is `kap config`'s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportScenario, openPlayground, panels, useBrowser, waitForPanels } from './browser.mjs';
import { kapBinary, show, shownChips } from './kap.mjs';

const env = useBrowser();
const SAMPLES = fileURLToPath(new URL('../../crates/scenario/tests/data/import/', import.meta.url));

/** `kap import` of a sample: the scenario text, the notes and the unread line numbers. */
function kapImport(name, args = []) {
  const run = spawnSync(kapBinary(), ['import', join(SAMPLES, name), ...args], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stderr.trim().split('\n');
  return {
    text: run.stdout,
    notes: lines.filter((l) => l.startsWith('inferred: ')).map((l) => l.slice('inferred: '.length)),
    unread: lines.filter((l) => l.startsWith('unread line ')).map((l) => Number(l.match(/^unread line (\d+)/)[1])),
  };
}

async function paste(page, name) {
  await page.getByRole('button', { name: 'Import from Kafka', exact: true }).click();
  const dialog = page.locator('[role=dialog][aria-label="Import from Kafka"]');
  await dialog.locator('textarea').fill(readFileSync(join(SAMPLES, name), 'utf8'));
  await readingShown(dialog);
  return dialog;
}

/** Waits for the compute worker's reading of the paste with the options chosen. */
const readingShown = (dialog) => dialog.locator('.import-reading[aria-busy=false]').waitFor();

for (const name of ['kafka-2.2.txt', 'kafka-3.6.txt', 'kafka-3.8.txt', 'kafka-4.0-consumer-protocol.txt']) {
  test(`${name} imports to the scenario kap imports, and the panels are kap show's`, async () => {
    const { page, errors } = await openPlayground(env);
    const dialog = await paste(page, name);
    const expected = kapImport(name);
    const notes = await dialog.locator('.import-notes li').allTextContents();
    assert.deepEqual(notes, expected.notes);
    await dialog.getByRole('button', { name: 'Import this group' }).click();
    const shown = show(expected.text);
    await waitForPanels(page, shownChips(shown));
    assert.deepEqual(await panels(page), shownChips(shown));
    // The group's own strategy moves nothing.
    assert.deepEqual(shown.strategies[shown.group_strategy].moved, []);
    assert.deepEqual(errors, []);
  });
}

test('every line the importer cannot read is listed with its number', async () => {
  const { page, errors } = await openPlayground(env);
  const dialog = await paste(page, 'messy.txt');
  const lines = await dialog.locator('.import-unread li').evaluateAll((lis) => lis.map((li) => Number(li.dataset.line)));
  assert.deepEqual(lines, kapImport('messy.txt').unread);
  assert.deepEqual(lines, [1, 40, 42, 43, 44]);
  // Several groups: choose one; weights from LAG.
  await dialog.locator('select').selectOption('orders-app');
  await dialog.getByLabel('Weigh partitions by LAG').check();
  await readingShown(dialog);
  const expected = kapImport('messy.txt', ['--group', 'orders-app', '--weights', 'lag']);
  assert.deepEqual(await dialog.locator('.import-notes li').allTextContents(), expected.notes);
  await dialog.getByRole('button', { name: 'Import this group' }).click();
  const shown = show(expected.text);
  await waitForPanels(page, shownChips(shown));
  assert.deepEqual(await panels(page), shownChips(shown));
  assert.deepEqual(errors, []);
});

test('a paste that cannot be placed says why and imports nothing', async () => {
  const { page } = await openPlayground(env);
  const before = await panels(page);
  const dialog = await paste(page, 'kafka-3.9-members-only.txt');
  assert.match(await dialog.locator('[role=alert]').textContent(), /print ASSIGNMENT without topic names/);
  assert.equal(await dialog.getByRole('button', { name: 'Import this group' }).isDisabled(), true);
  await dialog.getByRole('button', { name: 'Close' }).click();
  assert.deepEqual(await panels(page), before);
  // The dialog opens with the paste area focused and closes with Escape.
  await page.getByRole('button', { name: 'Import from Kafka', exact: true }).click();
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'TEXTAREA');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('[role=dialog][aria-label="Import from Kafka"]').count(), 0);
});

test('the Configuration section shows kap config for the chosen strategy, with copy buttons', async () => {
  const { page, errors } = await openPlayground(env);
  const section = page.locator('section.config');
  const code = (client) => section.locator(`li[data-client^="${client}"] pre`).textContent();
  assert.equal(await code('Java'), 'partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor');
  assert.equal(await code('franz-go'), 'kgo.Balancers(kgo.CooperativeStickyBalancer())');
  await section.locator('select').selectOption('uniform (consumer protocol)');
  assert.equal(await code('librdkafka'), 'group.protocol=consumer\ngroup.remote.assignor=uniform');
  await section.getByRole('button', { name: 'Copy the Java (KafkaConsumer) settings' }).click();
  assert.match(await section.locator('li[data-client^="Java"] button').textContent(), /^(Copied|Select and copy)$/);
  // The migration starts from the page's consumers, as kap config does from the same file.
  await section.locator('select').selectOption('cooperative-sticky');
  const dir = mkdtempSync(join(tmpdir(), 'kap-'));
  try {
    const file = join(dir, 'scenario.json');
    writeFileSync(file, await exportScenario(page));
    const run = spawnSync(kapBinary(), ['config', '--json', '--strategy', 'cooperative-sticky', file], { encoding: 'utf8' });
    const steps = JSON.parse(run.stdout).migration.steps.map((s) => `${s.title}: ${s.outcome}.`);
    assert.deepEqual(await section.locator('ol.migration li').allTextContents(), steps);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(errors, []);
});

/** Every panel's member weights: strategy → member → weight. */
const weights = (page) =>
  page.$$eval('section[data-strategy]', (sections) =>
    Object.fromEntries(
      sections.map((s) => [
        s.dataset.strategy,
        Object.fromEntries([...s.querySelectorAll('[data-member]')].map((row) => [row.dataset.member, Number(row.querySelector('[data-weight]')?.dataset.weight)])),
      ]),
    ),
  );

test('weights change the load the panels show, never the assignment', async () => {
  const { page, errors } = await openPlayground(env);
  const dialog = await paste(page, 'messy.txt');
  await dialog.locator('select').selectOption('orders-app');
  await dialog.getByLabel('Weigh partitions by LAG').check();
  await dialog.getByRole('button', { name: 'Import this group' }).click();
  const expected = show(kapImport('messy.txt', ['--group', 'orders-app', '--weights', 'lag']).text);
  await waitForPanels(page, shownChips(expected));
  const byStrategy = Object.fromEntries(
    Object.entries(expected.strategies).map(([s, r]) => [s, r.metrics.load.weights]),
  );
  assert.deepEqual(await weights(page), byStrategy);
  const spread = await page.$eval('section[data-strategy="cooperative-sticky"] [data-weight-spread]', (e) => Number(e.dataset.weightSpread));
  assert.equal(spread, expected.strategies['cooperative-sticky'].metrics.load.spread);

  // A hot partition: the load moves, the chips do not.
  const before = await panels(page);
  // The field lists the LAG of every partition of orders; orders-0 (LAG 37) becomes hot.
  const hot = page.getByLabel('Hot partitions of orders');
  const lags = await hot.inputValue();
  assert.equal(lags, '0=37, 2=111, 3=148, 4=185, 5=222'); // orders-1's row was cut short: no LAG
  await hot.fill(lags.replace(/^0=37/, '0=100000'));
  await hot.press('Enter');
  await page.waitForFunction(() => document.querySelector('section[data-strategy="range"] [data-weight-spread]')?.dataset.weightSpread > 90000);
  assert.deepEqual(await panels(page), before);
  const owner = Object.entries(expected.strategies['cooperative-sticky'].assignment).find(([, pairs]) =>
    pairs.some(([t, p]) => t === 'orders' && p === 0),
  )[0];
  const after = await weights(page);
  assert.equal(after['cooperative-sticky'][owner], byStrategy['cooperative-sticky'][owner] - 37 + 100000);
  // A weight that is not a number is refused beside the field, and nothing changes.
  await page.getByLabel('Weight of each partition of audit').fill('lots');
  await page.getByLabel('Weight of each partition of audit').press('Enter');
  assert.match(await page.locator('.weights [role=alert]').textContent(), /"lots" is not a weight/);
  assert.deepEqual(await weights(page), after);
  assert.deepEqual(errors, []);
});

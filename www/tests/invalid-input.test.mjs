// Bad input is refused beside the field (role=alert, aria-invalid) and changes nothing else: the
// panels, the saved work and the link stay as they were, and the page throws nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  field,
  fieldAlert,
  openPlayground,
  panels,
  savedScenario,
  useBrowser,
  waitForSaved,
  panelSelector,
} from './browser.mjs';

const env = useBrowser();

/** All refusals on the page: the label of each invalid field with its message. */
const refusals = (page) =>
  page.$$eval('label.field', (labels) =>
    labels
      .filter((l) => l.querySelector('input[aria-invalid="true"]') || l.querySelector('[role=alert]'))
      .map((l) => ({
        label: l.querySelector('.label').textContent,
        invalid: l.querySelector('input').getAttribute('aria-invalid'),
        alert: l.querySelector('[role=alert]')?.textContent ?? null,
      })),
  );

test('bad names, ids, counts and strategies are refused inline and change nothing', async () => {
  const { page, errors } = await openPlayground(env);
  // Make one edit first, so that there is saved work and a link to keep.
  await field(page, 'Partitions of T2').fill('4');
  const saved = await waitForSaved(page, { T1: 5, T2: 4 });
  const state = await panels(page);
  const hash = await page.evaluate(() => location.hash);
  assert.deepEqual(state.range, { C1: ['T1-0', 'T1-1', 'T1-2', 'T2-0', 'T2-1'], C2: ['T1-3', 'T1-4', 'T2-2', 'T2-3'] });

  const cases = [
    ['Name of topic 1', '', 'a topic needs a name'],
    ['Name of topic 1', 'T2', 'there is already a topic "T2"'],
    ['Name of topic 2', 'my topic', "' ' is not allowed in a topic name (letters, digits, '.', '_' and '-' are)"],
    ['member.id of consumer 2', 'C1', 'there is already a consumer "C1"'],
    ['member.id of consumer 1', '', 'a consumer needs an id'],
    ['Partitions of T1', '5000000', 'at most 1000000 partitions per topic'],
    ['Partitions of T2', '-1', '"-1" is not a partition count'],
    ['Partitions of T2', '2.5', '"2.5" is not a partition count'],
    ['Partitions of T2', '1e3', '"1e3" is not a partition count'],
    ['partition.assignment.strategy of C1', 'bogus', 'unknown strategy "bogus" (range, roundrobin, sticky or cooperative-sticky)'],
  ];
  for (const [label, value, message] of cases) {
    const what = `${label} = ${JSON.stringify(value)}`;
    // fill() is one input event, as pasting is: no keystroke on the way is applied first.
    await field(page, label).fill(value);
    await page
      .waitForFunction(
        ([l, m]) =>
          [...document.querySelectorAll('label.field')].some(
            (f) => f.querySelector('.label').textContent === l && f.querySelector('[role=alert]')?.textContent === m,
          ),
        [label, message],
        { timeout: 5_000 },
      )
      .catch(() => {});
    assert.deepEqual(await refusals(page), [{ label, invalid: 'true', alert: message }], what);
    // The field keeps what was typed, so it can be corrected.
    assert.equal(await field(page, label).inputValue(), value, what);
    assert.deepEqual(await panels(page), state, `${what}: the panels changed`);
    assert.equal(await savedScenario(page), saved, `${what}: the saved work changed`);
    assert.equal(await page.evaluate(() => location.hash), hash, `${what}: the link changed`);
  }

  // Letters cannot even be typed: Chromium keeps them out of number inputs, so the field reads as
  // empty and the app waits for a number (no refusal, nothing applied).
  const count = field(page, 'Partitions of T2');
  await count.click();
  await count.press('Control+a');
  await count.pressSequentially('abc');
  assert.equal(await count.inputValue(), '');
  assert.deepEqual(await panels(page), state, 'letters: the panels changed');
  await count.pressSequentially('4');

  // A good value clears the refusal and applies.
  await field(page, 'partition.assignment.strategy of C1').fill('range, cooperative-sticky');
  await page.waitForFunction(() => !document.querySelector('[role=alert]'));
  assert.deepEqual(await refusals(page), []);
  await field(page, 'Partitions of T1').fill('6');
  await page.waitForSelector(`${panelSelector('range')} [data-partition="T1-5"]`);
  assert.deepEqual((await panels(page)).range, {
    C1: ['T1-0', 'T1-1', 'T1-2', 'T2-0', 'T2-1'],
    C2: ['T1-3', 'T1-4', 'T1-5', 'T2-2', 'T2-3'],
  });
  assert.equal(await fieldAlert(page, 'Partitions of T1'), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test(
  'a refused name does not stay in its field after the next edit',
  async () => {
    const { page, errors } = await openPlayground(env);
    await field(page, 'Name of topic 1').fill('T2');
    await page.waitForSelector('[role=alert]');
    await page.getByRole('button', { name: 'Partitions of T2 plus one', exact: true }).click();
    await page.waitForSelector(`${panelSelector('range')} [data-partition="T2-3"]`);
    // The topic is still T1; a field that reads T2 without an alert misleads.
    const alert = await fieldAlert(page, 'Name of topic 1');
    const shown = await field(page, 'Name of topic 1').inputValue();
    assert.ok(shown === 'T1' || alert !== null, `the field reads "${shown}" with no alert`);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

// What a person sees at common window widths: nothing cut off, no sideways scrolling of the page,
// dialogs on screen and closable, the consumers' controls reachable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { focusedName, headerButton, openPlayground, useBrowser } from './browser.mjs';
import { bigGroup } from './group.mjs';
import { link } from './kap.mjs';

const env = useBrowser();

const WIDTHS = [390, 768, 1024, 1280, 1600];

// A real group's size (12 topics, 10 consumers): its wide tables scroll inside their own sections.
const TWELVE_BY_TEN = JSON.stringify({
  version: 1,
  title: '12 topics, 10 consumers',
  topics: Array.from({ length: 12 }, (_, i) => ({ name: `orders-${i}`, partitions: 6 + i })),
  consumers: Array.from({ length: 10 }, (_, i) => ({
    id: `consumer-${i}`,
    topics: Array.from({ length: i % 3 ? 12 : 6 }, (_, t) => `orders-${t}`),
  })),
});

test('the page never scrolls sideways at 390 to 1600 px, for the first preset and a 12 x 10 group', async () => {
  const url = link(TWELVE_BY_TEN, env.url);
  const fragment = url.slice(url.indexOf('#'));
  const problems = [];
  for (const [name, suffix] of [['first preset', ''], ['12 x 10 group', fragment]]) {
    const { page, errors } = await openPlayground(env, suffix);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      if (overflow > 0) problems.push(`${name}, ${width}px: the page is ${overflow}px wider than the window`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(problems, []);
});

/** Every dialog of the page: the button that opens it, and the dialog's accessible name. */
const ALL_DIALOGS = [
  ['Share link', 'Share link'],
  ['Embed', 'Embed'],
  ['Import from Kafka', 'Import from Kafka'],
  ['Recent (0)', 'Recent scenarios'],
];

test("at 390 to 1600 px a topic's racks field is wide enough for its whole hint (a 12 x 10 group)", async () => {
  const url = link(TWELVE_BY_TEN, env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  const racks = page.getByRole('textbox', { name: 'Racks of orders-0', exact: true });
  const problems = [];
  // 1,250 px: about the narrowest window with the editing column beside the results whose topics are
  // a table (narrower, each topic wraps its fields, as on a phone).
  for (const width of [...WIDTHS, 1250]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await racks.scrollIntoViewIfNeeded();
    // The hint's width in the field's own font against the room inside the field's padding.
    const [hint, room, text] = await racks.evaluate((input) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d');
      context.font = style.font;
      const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      return [context.measureText(input.placeholder).width, input.clientWidth - padding, input.placeholder];
    });
    assert.ok(text.length > 0, 'the racks field has a hint');
    if (hint > room) problems.push(`${width}px: the hint "${text}" (${hint.toFixed(0)} px) is cut (${room.toFixed(0)} px)`);
  }
  assert.deepEqual(problems, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 390 to 1600 px every dialog opens below its button, closes with Escape or its close button, and gives the focus back', async () => {
  const { page, errors } = await openPlayground(env);
  const problems = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    for (const [opener, name] of ALL_DIALOGS) {
      const button = await headerButton(page, opener);
      const dialog = page.locator(`[role=dialog][aria-label="${name}"]`);
      const where = `${width}px, ${name}`;
      for (const how of ['Escape', 'close button']) {
        await button.click();
        await dialog.waitFor();
        // The button stays clickable (nothing covers it), and the dialog fits the window.
        const covered = await button.click({ timeout: 1_000, trial: true }).then(() => false, () => true);
        if (covered) problems.push(`${where}: the dialog covers its button`);
        const box = await dialog.boundingBox();
        const view = page.viewportSize();
        if (box.x < 0 || box.x + box.width > view.width || box.y + box.height > view.height + 1) {
          problems.push(`${where}: the dialog spans ${Math.round(box.x)}..${Math.round(box.x + box.width)} × ..${Math.round(box.y + box.height)}`);
        }
        if (!(await dialog.getByRole('button', { name: 'Close', exact: true }).isVisible())) {
          problems.push(`${where}: no visible close button`);
        }
        if (how === 'Escape') await page.keyboard.press('Escape');
        else await dialog.getByRole('button', { name: 'Close', exact: true }).click();
        const closed = await dialog.waitFor({ state: 'detached', timeout: 2_000 }).then(() => true, () => false);
        if (!closed) {
          problems.push(`${where}: ${how} does not close it`);
          await button.dispatchEvent('click');
          continue;
        }
        const focused = await focusedName(page);
        if (focused !== opener) problems.push(`${where}: after ${how} the focus is on ${JSON.stringify(focused)}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('one dialog at a time: opening another closes the one open, at 390 and 1280 px', async () => {
  const { page, errors } = await openPlayground(env);
  const problems = [];
  let switched = 0;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    for (const [firstOpener, first] of ALL_DIALOGS) {
      for (const [secondOpener, second] of ALL_DIALOGS) {
        if (first === second) continue;
        await (await headerButton(page, firstOpener)).click();
        await page.locator(`[role=dialog][aria-label="${first}"]`).waitFor();
        // A button the open dialog covers cannot be clicked by a person either.
        const clicked = await page
          .getByRole('button', { name: secondOpener, exact: true })
          .click({ timeout: 1_000 })
          .then(() => true, () => false);
        if (clicked) {
          switched++;
          await page.locator(`[role=dialog][aria-label="${second}"]`).waitFor();
          const open = await page.$$eval('[role=dialog]', (ds) => ds.map((d) => d.getAttribute('aria-label')));
          if (open.length !== 1) problems.push(`${width}px, ${first} then ${second}: open ${JSON.stringify(open)}`);
        }
        while (await page.locator('[role=dialog]').count()) await page.keyboard.press('Escape');
      }
    }
  }
  assert.ok(switched >= 12, `only ${switched} dialog switches could be clicked`);
  assert.deepEqual(problems, []);
  assert.deepEqual(errors, []);
  await page.close();
});

/** What sticks out of the consumers editor: elements wider than it, cut ids, row actions out of view. */
const consumersEditorProblems = (page) =>
  page.$eval('section.consumers-editor', (section) => {
    const problems = [];
    const s = section.getBoundingClientRect();
    if (section.scrollWidth > section.clientWidth) problems.push(`scrolls sideways by ${section.scrollWidth - section.clientWidth}px`);
    for (const e of section.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width <= 1) continue; // screen-reader-only labels
      if (r.left < s.left - 1 || r.right > s.right + 1) {
        problems.push(`${e.tagName.toLowerCase()}.${e.className} spans ${Math.round(r.left)}..${Math.round(r.right)} of ${Math.round(s.left)}..${Math.round(s.right)}`);
      }
    }
    for (const input of section.querySelectorAll('[data-consumer] .consumer-main input')) {
      if (input.scrollWidth > input.clientWidth) problems.push(`the id ${input.value} is cut`);
    }
    for (const row of section.querySelectorAll('[data-consumer]')) {
      for (const button of row.querySelectorAll('.actions button')) {
        const r = button.getBoundingClientRect();
        if (r.width < 10 || r.left < s.left || r.right > s.right) problems.push(`${button.getAttribute('aria-label')} is out of view`);
      }
    }
    return problems.slice(0, 10);
  });

test('the consumers editor never scrolls sideways and keeps every row action in view (12 x 10 and 50 consumers)', async () => {
  const problems = [];
  for (const [name, json] of [
    ['12 x 10', TWELVE_BY_TEN],
    ['50 consumers', bigGroup(4, 50)],
  ]) {
    const url = link(json, env.url);
    const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const p of await consumersEditorProblems(page)) problems.push(`${name}, ${width}px: ${p}`);
    }
    // With more topics than fit in a row, each consumer's subscriptions are a picker; open, it fits too.
    if (name === '12 x 10') {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('button', { name: /^Subscriptions of consumer-1: 12 of 12 topics$/ }).click();
      await page.waitForSelector('[role=group][aria-label="Topics consumer-1 subscribes to"]');
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const p of await consumersEditorProblems(page)) problems.push(`${name}, picker open, ${width}px: ${p}`);
      }
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(problems, []);
});

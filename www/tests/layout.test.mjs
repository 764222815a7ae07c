// What a person sees at common window widths: nothing cut off, no sideways scrolling of the page,
// dialogs on screen and closable, the consumers' controls reachable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, useBrowser } from './browser.mjs';
import { link } from './kap.mjs';

const env = useBrowser();

const WIDTHS = [390, 768, 1024, 1280, 1600];
const DIALOGS = ['Share link', 'Embed'];

test('the Share link and Embed dialogs open inside the window at 390 to 1600 px', async () => {
  const { page, errors } = await openPlayground(env);
  const problems = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const name of DIALOGS) {
      const button = page.getByRole('button', { name, exact: true });
      await button.click();
      const box = await page.locator(`[role=dialog][aria-label="${name}"]`).boundingBox();
      if (box.x < 0 || box.x + box.width > width) {
        problems.push(`${width}px: the ${name} dialog spans x ${Math.round(box.x)}..${Math.round(box.x + box.width)}`);
      }
      // Closed by its button (dispatched on the button itself: see the next test).
      await button.dispatchEvent('click');
      await page.locator(`[role=dialog][aria-label="${name}"]`).waitFor({ state: 'detached' });
    }
  }
  assert.deepEqual(problems, []);
  assert.deepEqual(errors, []);
  await page.close();
});

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

test(
  'at 390 to 1600 px: dialogs closable where they open, Crash buttons in view',
  {
    todo:
      'app bugs: at 390 and 768 px the open dialog covers its own button ' +
      '(no Escape, no close button); the consumers table hides the row actions behind a sideways scroll',
  },
  async () => {
    const { page, errors } = await openPlayground(env);
    const problems = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const name of DIALOGS) {
        const button = page.getByRole('button', { name, exact: true });
        await button.click();
        // A person closes it with the button that opened it, or with Escape.
        const covered = await button.click({ timeout: 1_000, trial: true }).then(
          () => false,
          () => true,
        );
        if (covered) {
          await page.keyboard.press('Escape');
          const open = (await page.$(`[role=dialog][aria-label="${name}"]`)) !== null;
          if (open) problems.push(`${width}px: the open ${name} dialog covers its button and Escape does not close it`);
        }
        if (await page.$(`[role=dialog][aria-label="${name}"]`)) await button.dispatchEvent('click');
        await page.locator(`[role=dialog][aria-label="${name}"]`).waitFor({ state: 'detached' });
      }
      // The row's Crash button, where a person looks for it: inside the table's visible area.
      const hidden = await page.evaluate(() => {
        const button = document.querySelector('[aria-label="C2 crashes or leaves"]');
        const b = button.getBoundingClientRect();
        const s = button.closest('.scroll').getBoundingClientRect();
        return b.right > s.right + 1 || b.left < s.left - 1;
      });
      if (hidden) problems.push(`${width}px: "C2 crashes or leaves" is scrolled out of the consumers table`);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

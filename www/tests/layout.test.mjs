// What a person sees at common window widths: nothing cut off, no sideways scrolling of the page,
// the consumers' controls reachable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, start } from './browser.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.stop();
});

test(
  'at 390, 1024, 1280 and 1600 px: no sideways page scroll, dialogs on screen, Crash buttons visible',
  { todo: 'app bugs: the page overflows at 390 px; Share/Embed dialogs start off-screen at 1024-1280 px; the consumers table scrolls sideways even with 2 topics' },
  async () => {
    const { page, errors } = await openPlayground(env);
    const problems = [];
    for (const width of [390, 1024, 1280, 1600]) {
      await page.setViewportSize({ width, height: 900 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      if (overflow > 0) problems.push(`${width}px: the page is ${overflow}px wider than the window`);
      for (const name of ['Share link', 'Embed']) {
        await page.getByRole('button', { name, exact: true }).click();
        const box = await page.locator(`[role=dialog][aria-label="${name}"]`).boundingBox();
        if (box.x < 0 || box.x + box.width > width) problems.push(`${width}px: the ${name} dialog spans x ${Math.round(box.x)}..${Math.round(box.x + box.width)}`);
        await page.getByRole('button', { name, exact: true }).click();
      }
      // The row's Crash button, where a person looks for it: inside the table's visible area.
      const hidden = await page.evaluate(() => {
        const button = document.querySelector('[aria-label="C2 crashes or leaves"]');
        const scroller = button.closest('.scroll');
        const b = button.getBoundingClientRect();
        const s = scroller.getBoundingClientRect();
        return b.right > s.right + 1 || b.left < s.left - 1;
      });
      if (hidden) problems.push(`${width}px: "C2 crashes or leaves" is scrolled out of the consumers table`);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

// The group the trace scripts (`trace.mjs`, `opening.mjs`, `waits.mjs`) open: not a test.
import { start } from '../browser.mjs';
import { kapBinary, link } from '../kap.mjs';

/** Topics, partitions per topic and consumers: 1,000 partitions by default, `--big` 100,000, `--million` 1,000,000. */
export const shapeOf = (args) =>
  args.includes('--million') ? [10, 100_000, 2000] : args.includes('--big') ? [10, 10_000, 500] : [10, 100, 50];

/** The scenario file of such a group: topics t0…, consumers C0… (the odd ones subscribe to half the topics). */
export function scenario(topics, partitions, consumers) {
  const names = Array.from({ length: topics }, (_, i) => `t${i}`);
  return JSON.stringify({
    version: 1,
    title: `${topics * partitions} partitions, ${consumers} consumers`,
    topics: names.map((name) => ({ name, partitions })),
    consumers: Array.from({ length: consumers }, (_, i) => ({ id: `C${i}`, topics: i % 2 ? names.slice(0, 5) : names })),
  });
}

/** The browser and the page's server started (`../browser.mjs`), and the `kap link` of the group `args` asks for. */
export async function startWithGroup(args) {
  kapBinary();
  const env = await start();
  return { env, url: link(scenario(...shapeOf(args)), env.url) };
}

/**
 * Has the page itself say when `expression` (JavaScript, read in the page) first holds, checked at
 * each animation frame, on every navigation from now on; the function returned waits for the next
 * time it says so. Playwright's `waitForFunction` would first evaluate its injected script (some
 * 330 KB of JavaScript, one DevTools message) in the page: a task of the page's thread of 15–25 ms
 * of CPU and 27–105 ms of wall clock in the middle of an opening, which the longtask observer
 * counted as the page's own (stop 25, `opening9`).
 */
export async function sayWhen(page, expression, signal) {
  await page.addInitScript(
    ([expression, signal]) => {
      const holds = new Function(`return ${expression};`);
      const watch = () => (holds() ? console.debug(signal) : requestAnimationFrame(watch));
      requestAnimationFrame(watch);
    },
    [expression, signal],
  );
  return (timeout) => page.waitForEvent('console', { predicate: (m) => m.text() === signal, timeout });
}

// The opening of a page on a link and on its saved copy, from the navigation: when the editing
// column first shows (`editor`, ms) and when the first answer is painted with every consumer row of
// the editor's window in (`load`, ms, as opening.mjs's `load`). The saved copy is the one the page
// saved after opening the link. Not a test; asserts nothing.
//
//   node www/tests/perf/saved-opening.mjs [--big] [--runs 5]
//
// Each run prints one line (JSON): `{ link: { editor, load }, saved: { editor, load } }`, then the
// medians. PLAYGROUND_DIST compares another build (see ../browser.mjs).
import { startWithGroup } from './shape.mjs';

const args = process.argv.slice(2);
const RUNS = Number(args.includes('--runs') ? args[args.indexOf('--runs') + 1] : 5);

const OPENED = `(() => { const r = document.querySelector('.results');
  return r && r.getAttribute('aria-busy') === 'false' && r.dataset.shown === r.dataset.version && r.dataset.shown !== '0'
    && !document.querySelector('ol.consumers[aria-busy="true"]'); })()`;
const EDITOR = `!!document.querySelector('section.editor')`;
const SAVED = `(() => { const t = localStorage.getItem('kafka-assignor-playground/scenario');
  return !!t && t.includes('partitions,'); })()`;

async function open(page, url) {
  await page.goto('about:blank');
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(EDITOR, null, { timeout: 900_000, polling: 'raf' });
  const editor = Date.now() - t0;
  await page.waitForFunction(OPENED, null, { timeout: 900_000, polling: 'raf' });
  return { editor, load: Date.now() - t0 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const { env, url } = await startWithGroup(args);
try {
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const link = await open(page, url);
    await page.waitForFunction(SAVED, null, { timeout: 60_000 });
    const saved = await open(page, env.url);
    runs.push({ link, saved });
    console.log(JSON.stringify({ link, saved }));
    await page.close();
  }
  const of = (door, what) => median(runs.map((r) => r[door][what]));
  console.log(
    JSON.stringify({ median: { link: { editor: of('link', 'editor'), load: of('link', 'load') }, saved: { editor: of('saved', 'editor'), load: of('saved', 'load') } } }),
  );
} finally {
  await env.close?.();
  process.exit(0);
}

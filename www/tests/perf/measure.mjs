// In-browser performance of the playground: not a test (`node --test www/tests/` runs only
// *.test.mjs files) and it asserts nothing; it prints figures.
//
//   cd /work/main && source .ci/common.sh && trunk build --release && cargo build -p cli
//   node www/tests/perf/measure.mjs [--runs 20] [--no-big] [--json]
//
// What it measures, in a release build served from dist/ (or PLAYGROUND_DIST / PLAYGROUND_URL):
//  - the gzip -9 sizes of dist/*.wasm and dist/*.js (and of the wasm without its name section);
//  - a 1,000-partition group (10 topics × 100, 50 consumers all subscribed), opened from a #v1.
//    link made by `kap link`: the time from an edit (a typed partition count; "C<n> crashes or
//    leaves") to the first paint after the DOM shows it: performance.now() before dispatching the
//    event, then requestAnimationFrame until the DOM has changed, then one more frame. The median
//    and spread over --runs edits;
//  - a 100,000-partition group (100 topics × 1000, 200 consumers): the load, the time per edit and
//    how long the main thread stays blocked (long tasks; a 50 ms heartbeat's worst gap);
//  - typing 5000000 into a count key by key on the opening preset (every prefix is applied).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { start } from '../browser.mjs';
import { kapBinary, link } from '../kap.mjs';

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1] || 20) || 20;
const BIG = !args.includes('--no-big');
const JSON_OUT = args.includes('--json');
const DIST = process.env.PLAYGROUND_DIST ?? fileURLToPath(new URL('../../../dist/', import.meta.url));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const stats = (xs) => ({
  runs: xs.length,
  median: +median(xs).toFixed(1),
  min: +Math.min(...xs).toFixed(1),
  max: +Math.max(...xs).toFixed(1),
});
const log = (...a) => JSON_OUT || console.log(...a);

/** gzip -9 sizes of the build's wasm and js, and the wasm's name section. */
function sizes() {
  const out = {};
  for (const f of readdirSync(DIST).filter((f) => /\.(wasm|js)$/.test(f))) {
    const path = DIST.replace(/\/?$/, '/') + f;
    const bytes = readFileSync(path);
    const gz = Number(execFileSync('sh', ['-c', `gzip -9c "${path}" | wc -c`], { encoding: 'utf8' }).trim());
    out[f] = { bytes: bytes.length, gzip9: gz };
    if (f.endsWith('.wasm')) out[f].nameSection = customSection(bytes, 'name');
  }
  return out;
}

/** The size of a wasm custom section (0 if absent). */
function customSection(b, wanted) {
  let off = 8;
  const leb = () => {
    let r = 0;
    let s = 0;
    let x;
    do {
      x = b[off++];
      r += (x & 0x7f) * 2 ** s;
      s += 7;
    } while (x & 0x80);
    return r;
  };
  let total = 0;
  while (off < b.length) {
    const id = b[off++];
    const size = leb();
    const end = off + size;
    if (id === 0) {
      const n = leb();
      if (b.subarray(off, off + n).toString() === wanted) total += size;
    }
    off = end;
  }
  return total;
}

/** A scenario file: `topics` topics of `partitions`, `consumers` consumers subscribing to all. */
function scenario(topics, partitions, consumers) {
  const names = Array.from({ length: topics }, (_, i) => `t${i}`);
  return JSON.stringify({
    version: 1,
    title: `${topics * partitions} partitions, ${consumers} consumers`,
    topics: names.map((name) => ({ name, partitions })),
    consumers: Array.from({ length: consumers }, (_, i) => ({ id: `C${i}`, topics: names })),
  });
}

/** Opens `url` and waits for the panels; the load time in ms. */
async function open(env, url, timeout = 120_000) {
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(url, { timeout });
  await page.waitForSelector('section[data-strategy] [data-member]', { timeout });
  return { page, errors, load: Date.now() - t0 };
}

/**
 * In the page: runs `act` (a string of JS, the edit), then waits frame by frame until `done` (a
 * string of JS) holds, then one more frame: the time from the edit to the paint that shows it.
 * Also the longest gap of a 10 ms heartbeat meanwhile (how long the main thread was blocked).
 */
const timeEdit = (page, act, done) =>
  page.evaluate(
    async ([act, done]) => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      await frame();
      let last = performance.now();
      let worst = 0;
      const beat = setInterval(() => {
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
      }, 10);
      const t0 = performance.now();
      new Function(act)();
      const dispatched = performance.now() - t0;
      const check = new Function(`return (${done});`);
      let frames = 0;
      while (!check()) {
        await frame();
        if (++frames > 600) throw new Error(`never: ${done}`);
      }
      await frame();
      const painted = performance.now() - t0;
      await new Promise((r) => setTimeout(r, 20));
      clearInterval(beat);
      return { painted, dispatched, worstGap: worst };
    },
    [act, done],
  );

/** JS that sets the partition count input of topic `name` to `n`, as one input event. */
const typeCount = (name, n) => `
  const label = [...document.querySelectorAll('label.field')].find((l) => l.querySelector('.label').textContent === 'Partitions of ${name}');
  const input = label.querySelector('input');
  input.value = '${n}';
  input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: '${n}' }));`;

const click = (label) => `document.querySelector('[aria-label="${label}"]').click();`;

async function partitions1000(env, runs) {
  const url = link(scenario(10, 100, 50), env.url);
  const { page, errors, load } = await open(env, url);
  const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  const typed = [];
  const gaps = [];
  const sync = [];
  for (let i = 0; i < runs; i++) {
    // Alternate two topics so each edit is its own rebalance (a second edit of the same field
    // would continue the first): t0 → 101, t1 → 101, t0 → 100, t1 → 100, ...
    const topic = i % 2 ? 't1' : 't0';
    const n = Math.floor(i / 2) % 2 ? 100 : 101;
    const last = `[data-partition="${topic}-100"]`;
    const done = n === 101 ? `document.querySelector('${last}')` : `!document.querySelector('${last}')`;
    const r = await timeEdit(page, typeCount(topic, n), done);
    typed.push(r.painted);
    gaps.push(r.worstGap);
    sync.push(r.dispatched);
  }
  const crashed = [];
  for (let i = 0; i < runs; i++) {
    const r = await timeEdit(page, click(`C${i} crashes or leaves`), `!document.querySelector('[data-member="C${i}"]')`);
    crashed.push(r.painted);
  }
  await page.close();
  return {
    url_length: url.length,
    load_ms: load,
    dom_elements: domNodes,
    typed_count: stats(typed),
    typed_in_the_input_event: stats(sync),
    typed_worst_main_thread_gap: stats(gaps),
    crash: { ...stats(crashed), note: `C0..C${runs - 1} crash in turn: ${50}→${50 - runs} consumers` },
    errors,
  };
}

async function partitions100k(env, runs) {
  const url = link(scenario(100, 1000, 200), env.url);
  const { page, errors, load } = await open(env, url, 600_000);
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  const summary = await page.$eval('section[data-strategy="range"] [data-member="C0"]', (e) => e.textContent.slice(0, 80));
  const typed = [];
  const gaps = [];
  const sync = [];
  for (let i = 0; i < runs; i++) {
    const topic = i % 2 ? 't1' : 't0';
    const n = Math.floor(i / 2) % 2 ? 1000 : 1001;
    // Rows are summarised as ranges above 5,000 partitions: wait for the range panel to change.
    const panel = `document.querySelector('section[data-strategy="range"]').textContent`;
    const r = await timeEdit(page, `window.__before = ${panel};` + typeCount(topic, n), `${panel} !== window.__before`);
    typed.push(r.painted);
    gaps.push(r.worstGap);
    sync.push(r.dispatched);
  }
  const crashed = [];
  for (let i = 0; i < Math.min(runs, 5); i++) {
    const r = await timeEdit(page, click(`C${i} crashes or leaves`), `!document.querySelector('[data-member="C${i}"]')`);
    crashed.push(r.painted);
  }
  const longTasks = await page.evaluate(() => window.__long);
  await page.close();
  return {
    url_length: url.length,
    load_ms: load,
    first_row: summary,
    typed_count: stats(typed),
    typed_in_the_input_event: stats(sync),
    typed_worst_main_thread_gap: stats(gaps),
    crash: stats(crashed),
    long_tasks: { count: longTasks.length, max: Math.round(Math.max(0, ...longTasks)) },
    errors,
  };
}

/** Typing 5000000 key by key into "Partitions of T1" on the opening preset. */
async function typeFiveMillion(env) {
  const { page } = await open(env, env.url);
  const input = page.locator('label.field:has(> span.label:text-is("Partitions of T1")) input');
  await input.click();
  await input.press('Control+a');
  const t0 = Date.now();
  await input.pressSequentially('5000000');
  await page.waitForSelector('[role=alert]', { timeout: 120_000 });
  const ms = Date.now() - t0;
  const shown = await input.inputValue();
  const alert = await page.textContent('[role=alert]');
  await page.close();
  return { ms, field_reads: shown, alert };
}

kapBinary();
const env = await start();
const result = { sizes: sizes() };
log('sizes', result.sizes);
try {
  result.partitions1000 = await partitions1000(env, RUNS);
  log('1,000 partitions, 50 consumers', result.partitions1000);
  if (BIG) {
    result.partitions100k = await partitions100k(env, Math.min(RUNS, 6));
    log('100,000 partitions, 200 consumers', result.partitions100k);
  }
  result.type5000000 = await typeFiveMillion(env);
  log('typing 5000000 key by key', result.type5000000);
} finally {
  await env.stop();
}
if (JSON_OUT) console.log(JSON.stringify(result, null, 2));

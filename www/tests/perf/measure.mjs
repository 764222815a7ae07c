// In-browser performance of the playground: not a test (`node --test www/tests/` runs only
// *.test.mjs files) and it asserts nothing; it prints the rows of issue 9's targets.
//
//   source .ci/common.sh && trunk build --release && cargo build -p cli
//   node www/tests/perf/measure.mjs [--runs 20] [--no-big] [--no-million] [--no-pause] [--key-frame] [--key-gap 120] [--json]
//
// In a release build served from dist/ (or PLAYGROUND_DIST / PLAYGROUND_URL), each group opened
// from a #v1. link made by `kap link`:
//  - sizes: gzip -9 of dist/*.wasm and dist/*.js (the page's and the compute worker's);
//  - 1,000 partitions × 50 consumers, two subscription sets (10 topics × 100; even consumers read
//    all ten, odd ones t0–t4): edit → paint over --runs partition counts (median, max), two rows:
//    each edit dispatched at the start of a frame, and each typed with the keyboard (below);
//  - 100,000 partitions × 500 consumers (10 topics × 10,000, all subscribed): the load (navigation
//    to the first painted answer) and edit → result over typed partition counts;
//  - 1,000,000 partitions × 2,000 consumers (10 topics × 100,000, every consumer subscribed): the
//    load and two edits → result. Kafka's large test has the same counts over 500 topics; here the
//    topics are few so that the consumers editor (a checkbox per consumer and topic) stays small
//    and the figures are the compute and the panels'.
// Edit → paint at the start of a frame (`edit_to_paint_ms`): performance.now() before the edit's events are dispatched (the value set, `input`,
// then `change`, which applies it at once) at the start of a frame, then frame by frame until the
// results region is no longer aria-busy and shows the new version (data-shown = data-version) as
// that frame starts; the edit is painted once that frame is: the time when a task queued from the
// frame's animation callbacks runs, right after the frame's style, layout and paint. `frames` counts
// the frames from the edit's to that one (1: the answer is in the first frame after the edit).
// `edit_to_frame_after_ms` is the figure of earlier stops: to the start of the frame after that
// one, a frame later.
// The edit comes at the start of a frame, in its animation callbacks: that frame's rendering
// follows at once, so no answer computed elsewhere can be in it, and the first frame that can show
// the answer starts a frame interval later (16.7 ms at Chromium's 60 Hz). `floor_ms` measures that
// bound the same way on the same page: instead of an edit, a task queued right away sets one
// attribute, and the time runs to the painted frame that shows it. Edit → paint cannot be below it
// (about 17 ms here): the answer in the first frame after the edit, and that frame's own rendering.
// Typed (`typed_*`, 1,000 partitions only; a page of its own, loaded the same way): the same
// counts typed as a person types them, through the browser's input (Playwright's `page.keyboard`,
// i.e. CDP key events, which reach the page as a keyboard's do): the field focused and its text
// selected, each digit a key (the field holds it: `SETTLE_MS`), 120 ms apart as a quick typist's
// (`--key-gap`, typing.mjs's `KEY_GAP_MS`; 0: back to back, as stops 24–26 typed them), then Enter,
// which applies it, as long after the last digit and at a random moment within a frame (a 0–17 ms
// pause more, plus however long the key takes to arrive). Timed as Chromium's Event Timing (INP) times an interaction, from the
// Enter keydown's `timeStamp` (when the browser received the key, before it waited for the page's
// thread), but to the painted frame that shows the answer (data-shown = data-version, results not
// aria-busy; a MutationObserver sees it written, then the frame that follows is painted when a
// task queued from its animation callbacks runs): INP proper ends at the frame that shows the
// edit itself, which here changes nothing the eye sees, and at that frame's presentation rather
// than at the end of the page's part of it. With --key-frame, `typed_event_to_next_frame_ms`: from
// the event to the start of the first frame after it (its animation callbacks' timestamp: negative
// when that frame had begun before the key was handled), how the keys fell within the frames, and
// `typed_frames_to_paint`; both need an animation frame requested at the key, which a person's key
// does not request (typing.mjs), so the default asks for none. `typed_floor_ms`: the typed row of
// an answer that needs no work (typing.mjs's `typeFloor`). The edit's own frame is not at once
// here: an answer can be in it when the worker answers before the frame begins.
// Both rows are reported: the frame-start row is the worst case of where a key can fall (its
// answer never in the edit's own frame), the typed row the case of a person typing; neither alone.
// The edits start 1 s after the first answer is painted (`--no-pause`: at once), as a person reads
// the page before typing; the load figures are measured before that. `first_edit_ms` is the first
// edit's own edit → paint (it is also in `edit_to_paint_ms`).
// Main thread blocked: the longest long task (PerformanceObserver 'longtask', ≥ 50 ms) and the
// longest gap of a 10 ms heartbeat, from the page's start (load) or the edit (edits) to the paint;
// `longest_task_at` is when the load's longest task started (ms from the navigation).
// `worker` is the compute worker's own time for the painted answer (data-compute-ms); the page's
// User Timing measures `answer:decode` (reading the worker's message) and `answer:handle` (the
// reducer and the render it starts) say what the answer costs the page's thread.
// `typed_answer_late` counts the typed edits whose draft's answer, computed ahead while the digits
// were typed, was not in when Enter came (a worker's answer read after the key): those were held
// for it.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { start, typedCount } from '../browser.mjs';
import { kapBinary, link } from '../kap.mjs';
import { sayWhen } from './shape.mjs';
import { KEY_GAP_MS, PAINTED, typeCount, typeFloor } from './typing.mjs';

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1] || 20) || 20;
const BIG = !args.includes('--no-big');
const MILLION = BIG && !args.includes('--no-million');
const JSON_OUT = args.includes('--json');
const PAUSE_MS = args.includes('--no-pause') ? 0 : 1000;
// The typed row's frames counted, with an animation frame requested at each key (typing.mjs).
const KEY_FRAME = args.includes('--key-frame');
// The typed row's time between keys (typing.mjs's KEY_GAP_MS; 0: back to back, as stops 24–26 typed).
const KEY_GAP = args.includes('--key-gap') ? Number(args[args.indexOf('--key-gap') + 1]) : KEY_GAP_MS;
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

/**
 * A scenario file: `topics` topics of `partitions`, `consumers` consumers. `subscribe(i, names)`
 * gives consumer i's subscription: `{ topics }` or `{ patterns }`.
 */
function scenario(topics, partitions, consumers, subscribe = (i, names) => ({ topics: names })) {
  const names = Array.from({ length: topics }, (_, i) => `t${i}`);
  return JSON.stringify({
    version: 1,
    title: `${topics * partitions} partitions, ${consumers} consumers`,
    topics: names.map((name) => ({ name, partitions })),
    consumers: Array.from({ length: consumers }, (_, i) => ({ id: `C${i}`, ...subscribe(i, names) })),
  });
}

/** In the page, before anything runs: long tasks and a 10 ms heartbeat's gaps, from the start. */
const INSTRUMENT = () => {
  // Each long task as [start, duration] (ms).
  window.__long = [];
  window.__gap = { last: performance.now(), worst: 0 };
  new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => [e.startTime, e.duration]))).observe({
    type: 'longtask',
    buffered: true,
  });
  setInterval(() => {
    const now = performance.now();
    window.__gap.worst = Math.max(window.__gap.worst, now - window.__gap.last);
    window.__gap.last = now;
  }, 10);
};

/** Opens `url` and waits for the first painted answer: the load time and the main thread's worst block. */
async function open(env, url, timeout = 120_000) {
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.addInitScript(INSTRUMENT);
  const painted = (await sayWhen(page, PAINTED, 'measure:painted'))(timeout);
  const t0 = Date.now();
  await page.goto(url, { timeout });
  await painted;
  const load = Date.now() - t0;
  const blocked = await page.evaluate(() => {
    const [at, longest] = window.__long.reduce((a, b) => (b[1] > a[1] ? b : a), [null, 0]);
    return {
      longest_task: Math.round(longest),
      longest_task_at: at === null ? null : Math.round(at),
      worst_gap: Math.round(window.__gap.worst),
      worker: Number(document.querySelector('.results').dataset.computeMs),
    };
  });
  return { page, errors, load, blocked };
}

/**
 * In the page: runs `act` (a string of JS, the edit), then waits frame by frame until the answer
 * of the new version is painted, then one more frame: the time from the edit to that paint, the
 * time the edit's own events took, the main thread's worst block meanwhile and the worker's time.
 */
const timeEdit = (page, act) =>
  page.evaluate(
    async ([act, painted]) => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      // Resolves after the current frame's rendering: a task queued during its animation callbacks.
      const afterPaint = () =>
        new Promise((r) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => r(performance.now());
          channel.port2.postMessage(0);
        });
      await frame();
      const results = document.querySelector('.results');
      const before = results.dataset.version;
      const long0 = window.__long.length;
      window.__gap.worst = 0;
      window.__gap.last = performance.now();
      const t0 = performance.now();
      new Function(act)();
      const dispatched = performance.now() - t0;
      const check = new Function(`return ${painted};`);
      let frames = 0;
      while (results.dataset.version === before || !check()) {
        await frame();
        if (++frames > 6000) throw new Error('the answer never came');
      }
      const paint = (await afterPaint()) - t0;
      await frame();
      const frameAfter = performance.now() - t0;
      const last = (name) => performance.getEntriesByName(name, 'measure').at(-1)?.duration ?? NaN;
      return {
        paint,
        frames,
        frameAfter,
        decode: last('answer:decode'),
        handle: last('answer:handle'),
        dispatched,
        worstGap: window.__gap.worst,
        longestTask: Math.max(0, ...window.__long.slice(long0).map(([, duration]) => duration)),
        worker: Number(results.dataset.computeMs),
      };
    },
    [act, PAINTED],
  );

/**
 * In the page, `runs` times: from the start of a frame (as an edit), a task queued at once sets one
 * attribute; the time to the painted frame that shows it, as `timeEdit` times an edit's answer.
 */
const timeFloor = (page, runs) =>
  page.evaluate(async (runs) => {
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const afterPaint = () =>
      new Promise((r) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => r(performance.now());
        channel.port2.postMessage(0);
      });
    const times = [];
    for (let i = 0; i < runs; i++) {
      await frame();
      const t0 = performance.now();
      setTimeout(() => (document.body.dataset.floor = String(i)));
      while (document.body.dataset.floor !== String(i)) await frame();
      times.push((await afterPaint()) - t0);
      await frame();
    }
    return times;
  }, runs);

/**
 * Typed partition counts, alternating two topics so each edit is its own rebalance: t0 and t1 one
 * fewer, then back (one more would take Kafka's large test past the 1,000,000-partition limit).
 */
const countAt = (i, partitions) => [i % 2 ? 't1' : 't0', Math.floor(i / 2) % 2 ? partitions : partitions - 1];

/** `runs` edits, each at the start of a frame (`timeEdit`), typing the counts `countAt` gives. */
async function edits(page, runs, partitions) {
  const rows = [];
  for (let i = 0; i < runs; i++) {
    rows.push(await timeEdit(page, typedCount(...countAt(i, partitions))));
  }
  return {
    edit_to_paint_ms: stats(rows.map((r) => r.paint)),
    first_edit_ms: +rows[0].paint.toFixed(1),
    frames_to_paint: stats(rows.map((r) => r.frames)),
    edit_to_frame_after_ms: stats(rows.map((r) => r.frameAfter)),
    in_the_event_ms: stats(rows.map((r) => r.dispatched)),
    worker_ms: stats(rows.map((r) => r.worker)),
    answer_decode_ms: stats(rows.map((r) => r.decode)),
    answer_dispatch_and_render_ms: stats(rows.map((r) => r.handle)),
    main_thread_worst_gap_ms: Math.round(Math.max(...rows.map((r) => r.worstGap))),
    main_thread_longest_task_ms: Math.round(Math.max(...rows.map((r) => r.longestTask))),
  };
}

/**
 * A person typing: `runs` partition counts typed with the keyboard, each applied by Enter pressed at
 * a random moment within a frame, timed from the Enter's event `timeStamp` to the painted frame
 * showing the answer (`typing.mjs`). The same counts and topics as `edits` (`countAt`).
 */
async function typedEdits(page, runs, partitions) {
  const timings = [];
  for (let i = 0; i < runs; i++) {
    timings.push(await typeCount(page, ...countAt(i, partitions), KEY_FRAME, KEY_GAP));
  }
  // A missed edit (no answer within typing.mjs's MISSED_MS: applied before its Enter) is counted, not timed.
  const rows = timings.filter(Boolean);
  return {
    typed_key_gap_ms: KEY_GAP,
    typed_edit_to_paint_ms: stats(rows.map((r) => r.paint)),
    typed_first_edit_ms: timings[0] ? +timings[0].paint.toFixed(1) : NaN,
    typed_missed: timings.length - rows.length,
    // Edits whose draft's answer was not in when Enter came (read after the key): held for it.
    typed_answer_late: rows.filter((r) => r.late).length,
    ...(KEY_FRAME && {
      typed_event_to_next_frame_ms: stats(rows.map((r) => r.toFrame)),
      typed_frames_to_paint: stats(rows.map((r) => r.frames)),
    }),
    typed_worker_ms: stats(rows.map((r) => r.worker)),
    typed_answer_decode_ms: stats(rows.map((r) => r.decode)),
    typed_answer_dispatch_and_render_ms: stats(rows.map((r) => r.handle)),
  };
}

/** The typed row's floor (`typeFloor`), `runs` times: a typed Enter answered at once, no work. */
async function typedFloor(page, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await typeFloor(page, countAt(i, 100)[1]));
  return { typed_floor_ms: stats(times) };
}

async function group(env, label, text, runs, partitions, timeout, typed = false) {
  const url = link(text, env.url);
  const { page, errors, load, blocked } = await open(env, url, timeout);
  const dom = await page.evaluate(() => document.getElementsByTagName('*').length);
  const result = { link_length: url.length, load_ms: load, load_blocked: blocked, dom_elements: dom };
  if (PAUSE_MS) await page.waitForTimeout(PAUSE_MS);
  Object.assign(result, await edits(page, runs, partitions));
  result.floor_ms = stats(await timeFloor(page, Math.min(runs, 10)));
  result.errors = errors;
  await page.close();
  if (typed) {
    // A page of its own, so that its first edit is also the first after load.
    const { page, errors } = await open(env, url, timeout);
    if (PAUSE_MS) await page.waitForTimeout(PAUSE_MS);
    Object.assign(result, await typedEdits(page, runs, partitions));
    Object.assign(result, await typedFloor(page, runs));
    result.errors.push(...errors);
    await page.close();
  }
  log(label, result);
  return result;
}

kapBinary();
const env = await start();
const result = { sizes: sizes() };
log('sizes', result.sizes);
try {
  const mixed = (i, names) => ({ topics: i % 2 ? names.slice(0, 5) : names });
  result.partitions1000 = await group(env, '1,000 partitions × 50 consumers (two subscription sets)', scenario(10, 100, 50, mixed), RUNS, 100, undefined, true);
  if (BIG) {
    result.partitions100k = await group(env, '100,000 partitions × 500 consumers', scenario(10, 10_000, 500), Math.min(RUNS, 6), 10_000, 600_000);
  }
  if (MILLION) {
    result.partitions1m = await group(env, '1,000,000 partitions × 2,000 consumers', scenario(10, 100_000, 2000), 2, 100_000, 900_000);
  }
} finally {
  await env.stop();
}
if (JSON_OUT) console.log(JSON.stringify(result, null, 2));

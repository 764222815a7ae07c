// Where an edit's time goes on the page's thread: a Chrome trace (CDP Tracing) of a few typed
// partition counts in the 1,000 × 50 group, summarised as each edit's main-thread tasks (what ran,
// for how long, and when from the edit) and the worker's. Not a test; asserts nothing.
//
//   node www/tests/perf/trace.mjs [--edits 5] [--out trace.json]
//
// Each edit's `cpu` line is on the threads' own CPU clocks (the trace's `tdur`), which a machine
// loaded by other work inflates far less than the wall clock: the edit's task (its events, the
// reducer, the post to the worker, the render and the edit's own frame, in brackets; `--typed`:
// the key's task, and in brackets the edit's frame, a task of its own before the answer), reading and
// rendering the answer, the frame that paints it (the tasks with a layout or a paint up to the
// paint), and the worker's task; then the page thread's layout, prepaint, paint and layerize from
// the key to the paint wherever they ran (a typed edit's layout is forced by its `keypress`, in the
// key's task) and all its tasks meanwhile. The medians over the edits after the first, then the
// first, close the list.
// PLAYGROUND_DIST compares another build (see ../browser.mjs).
import { writeFileSync } from 'node:fs';
import { start, typedCount } from '../browser.mjs';
import { kapBinary, link } from '../kap.mjs';
import { PAINTED, typeCount as typeWithKeyboard } from './typing.mjs';
import { scenario, shapeOf } from './shape.mjs';

const args = process.argv.slice(2);
const EDITS = Number(args[args.indexOf('--edits') + 1] || 5) || 5;
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : null;
const SHAPE = shapeOf(args);
// --load: trace the page's opening instead (navigation to the first painted answer).
const LOAD = args.includes('--load');
// --typed: each count typed with the keyboard and applied by Enter (typing.mjs).
const TYPED = args.includes('--typed');

const typeCount = (name, n) => `performance.mark('edit:start');\n${typedCount(name, n)}`;

kapBinary();
const env = await start();
try {
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  if (LOAD) {
    const url = link(scenario(...SHAPE), env.url);
    await page.goto(env.url);
    const cdp = await page.context().newCDPSession(page);
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', { categories: process.env.TRACE_CATEGORIES ?? 'devtools.timeline,blink.user_timing,v8.execute,toplevel', transferMode: 'ReportEvents' });
    const t0 = Date.now();
    await page.goto('about:blank');
    await page.goto(url);
    await page.waitForFunction(PAINTED, null, { timeout: 600_000, polling: 'raf' });
    console.log(`load ${Date.now() - t0} ms; ${await page.evaluate(() => document.getElementsByTagName('*').length)} elements`);
    await cdp.send('Tracing.end');
    await done;
    const names = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
    const main = events.filter((e) => names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain');
    const first = Math.min(...main.filter((e) => e.ts > 0).map((e) => e.ts));
    if (OUT) writeFileSync(OUT, JSON.stringify(events));
    // Top-level tasks: `RunTask`, or `ThreadControllerImpl::RunTask` in newer Chromium builds.
    for (const t of main.filter((e) => /(^|::)RunTask$/.test(e.name) && e.ph === 'X' && e.dur > 10_000)) {
      const kids = main
        .filter((e) => e.ph === 'X' && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur && e.dur > 2000 && !/RunTask|RunMicrotasks/.test(e.name))
        .map((e) => `${e.name}${e.args?.data?.type ? '(' + e.args.data.type + ')' : ''} ${(e.dur / 1000).toFixed(1)}`)
        .slice(0, 8)
        .join(', ');
      console.log(`  +${((t.ts - first) / 1000).toFixed(0)} ${(t.dur / 1000).toFixed(1)} ms: ${kids}`);
    }
  } else {
    await edits(page);
  }
} finally {
  await env.stop();
}

/** Traces EDITS typed partition counts and prints each one's tasks. */
async function edits(page) {
  await page.goto(link(scenario(...SHAPE), env.url));
  await page.waitForFunction(PAINTED, null, { timeout: 300_000, polling: 'raf' });
  await page.waitForTimeout(1000);
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    categories: process.env.TRACE_CATEGORIES ?? 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,v8.execute,toplevel',
    transferMode: 'ReportEvents',
  });
  const paints = [];
  for (let i = 0; i < EDITS; i++) {
    const n = Math.floor(i / 2) % 2 ? SHAPE[1] : SHAPE[1] - 1;
    if (TYPED) {
      // `edit:start` at the Enter's timeStamp, `edit:painted` after the answer's frame (typing.mjs).
      paints.push((await typeWithKeyboard(page, i % 2 ? 't1' : 't0', n))?.paint ?? NaN);
      await page.waitForTimeout(100);
      continue;
    }
    const t = await page.evaluate(
      async ([act, painted]) => {
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        await frame();
        const results = document.querySelector('.results');
        const before = results.dataset.version;
        const t0 = performance.now();
        new Function(act)();
        const check = new Function(`return ${painted};`);
        while (results.dataset.version === before || !check()) await frame();
        // After this frame's style, layout and paint: a task queued from its animation callbacks.
        await new Promise((r) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = r;
          channel.port2.postMessage(0);
        });
        performance.mark('edit:painted');
        await frame();
        return performance.now() - t0;
      },
      [typeCount(i % 2 ? 't1' : 't0', n), PAINTED],
    );
    paints.push(t);
  }
  await page.waitForTimeout(800);
  await cdp.send('Tracing.end');
  await done;
  if (OUT) writeFileSync(OUT, JSON.stringify(events));
  // Threads by name.
  const names = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  const main = events.filter((e) => names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain');
  const worker = events.filter((e) => /Worker/.test(names.get(`${e.pid}:${e.tid}`) ?? ''));
  const starts = main.filter((e) => e.name === 'edit:start').map((e) => e.ts).sort((a, b) => a - b);
  const tasks = (evs) => evs.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur > 500);
  // What a task did: the longest named child events inside it.
  const inside = (evs, task) =>
    evs
      .filter((e) => e.ph === 'X' && e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur && e.dur > 300)
      .filter((e) => !['RunTask', 'ThreadControllerImpl::RunTask', 'RunMicrotasks'].includes(e.name))
      .map((e) => `${e.name}${e.args?.data?.type ? '(' + e.args.data.type + ')' : ''}${e.args?.data?.functionName ? '(' + e.args.data.functionName + ')' : ''} ${(e.dur / 1000).toFixed(1)}`)
      .slice(0, 6)
      .join(', ');
  const measures = main.filter((e) => e.cat?.includes('user_timing') && e.ph === 'b');
  const painted = main.filter((e) => e.name === 'edit:painted').map((e) => e.ts).sort((a, b) => a - b);
  const cpus = [];
  starts.forEach((s, i) => {
    const end = starts[i + 1] ?? Infinity;
    console.log(`\nedit ${i + 1}: paint ${paints[i].toFixed(1)} ms`);
    for (const t of tasks(main).filter((t) => t.ts >= s - 2000 && t.ts < end)) {
      console.log(`  main +${((t.ts - s) / 1000).toFixed(1)} ${(t.dur / 1000).toFixed(1)} ms: ${inside(main, t)}`);
    }
    for (const t of tasks(worker).filter((t) => t.ts >= s && t.ts < end)) {
      console.log(`  worker +${((t.ts - s) / 1000).toFixed(1)} ${(t.dur / 1000).toFixed(1)} ms: ${inside(worker, t)}`);
    }
    for (const m of measures.filter((m) => m.ts >= s && m.ts < end)) console.log(`  measure ${m.name} +${((m.ts - s) / 1000).toFixed(1)}`);
    const cpu = cpuOf(main, worker, s, painted[i]);
    cpus.push(cpu);
    console.log(`  cpu: ${show(cpu)}`);
  });
  const median = (xs) => {
    const v = [...xs].sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  };
  const rest = cpus.slice(1);
  if (rest.length) console.log(`\ncpu, median of edits 2–${cpus.length}: ${show(Object.fromEntries(Object.keys(rest[0]).map((k) => [k, median(rest.map((c) => c[k]))])))}`);
  if (cpus.length) console.log(`cpu, first edit: ${show(cpus[0])}`);
}

/** CPU ms (the trace's `tdur`) of an edit's phases, from its start mark to its painted mark. */
function cpuOf(main, worker, start, painted) {
  const cpu = (e) => (e.tdur ?? e.dur) / 1000;
  const tasks = main.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts + e.dur > start && e.ts < painted);
  const inside = (task, name) => main.filter((e) => e.name === name && e.ph === 'X' && e.ts >= task.ts && e.ts < task.ts + task.dur);
  // A typed edit's start is its key's timeStamp, before the task that handles the key.
  const edit = tasks.find((t) => t.ts <= start && t.ts + t.dur >= start) ?? tasks.find((t) => t.ts >= start);
  const rendering = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit'];
  // Paint events nest (the document's, then a layer's): the outermost of each task counts.
  const outermost = (list) => list.filter((e) => !list.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur));
  const sum = (list) => list.reduce((a, e) => a + cpu(e), 0);
  const renderingOf = (task, after) => sum(outermost(rendering.flatMap((n) => inside(task, n)).filter((e) => e.ts >= after)));
  const answers = tasks.filter((t) => inside(t, 'HandlePostMessage').length);
  // A frame: a task that lays out or paints (a typed edit's answer frame lays out nothing when the
  // key's `keypress` forced its layout).
  const frames = tasks.filter((t) => t !== edit && (inside(t, 'Layout').length || inside(t, 'Paint').length));
  // A typed edit's own frame is a task of its own, before the answer came.
  const answered = Math.max(...answers.map((t) => t.ts));
  const editFrames = frames.filter((t) => t.ts < answered);
  return {
    edit: edit ? cpu(edit) : NaN,
    editFrame: edit ? renderingOf(edit, start) + sum(editFrames) : NaN,
    answer: sum(answers),
    answerFrame: sum(frames.filter((t) => t.ts >= answered)),
    worker: sum(worker.filter((e) => e.name === 'HandlePostMessage' && e.ph === 'X' && e.ts > start && e.ts < painted)),
    // The page thread's rendering phases from the key to the paint, wherever they ran (a layout the
    // key's task forced included), and all its tasks.
    ...Object.fromEntries(
      ['Layout', 'PrePaint', 'Paint', 'Layerize'].map((n) => [
        n,
        sum(outermost(main.filter((e) => e.name === n && e.ph === 'X' && e.ts >= start && e.ts < painted))),
      ]),
    ),
    tasks: sum(tasks.filter((t) => t.ts + t.dur <= painted)),
  };
}

function show(c) {
  const f = (x) => x.toFixed(1);
  return `edit task ${f(c.edit)} (its frame ${f(c.editFrame)}), answer ${f(c.answer)}, answer's frame ${f(c.answerFrame)}, worker ${f(c.worker)} ms; layout ${f(c.Layout)}, prepaint ${f(c.PrePaint)}, paint ${f(c.Paint)}, layerize ${f(c.Layerize)}, all tasks ${f(c.tasks)} ms`;
}

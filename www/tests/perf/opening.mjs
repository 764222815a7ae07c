// The page's opening, task by task: a Chrome trace (CDP Tracing) from the navigation to the first
// painted answer with the consumer rows the opening mounts in, each top-level task of the page's thread summarised
// by what it added to the page and by its own CPU time (the trace's `tdur`, which a machine loaded
// by other work inflates far less than the wall clock). Not a test; asserts nothing.
//
//   node www/tests/perf/opening.mjs [--big | --million] [--runs 3] [--tasks] [--cold] [--out trace.json]
//
// Each run prints one `summary` line (JSON): `load` (ms, navigation to that paint), `sum` (the CPU
// of every task of the page's thread), `maxCpu` and `maxWall` (its longest task), `longest` (the
// page's own longest 'longtask' entry, as measure.mjs reports it), `others` (the CPU of the
// renderer's other threads, the compute workers and V8's compiler threads, while the page's tasks
// of 10 ms or more ran: the cores those tasks shared) and `othersEditing` (the same up to the
// editing column's last frame), and `parts`: each task that added to the page, named by the first
// element it added (`section.editor`: the topics then the consumers editor, `li.consumer`: rows,
// `section.panel`: a panel), its CPU in ms, in order. `--tasks` lists every task over 10 ms with
// its own time by kind (script, style, layout, pre-paint, paint, layers, GC), what it added, the
// page's 'longtask' entry it is, if one is (`[longtask ms]`; an entry no task of the page's thread
// after its first script matches is listed apart), and the CPU the other threads used beside it
// (`beside it`, by what it did: the compute workers' `worker start` and `worker job`, V8's `tier-up`
// of hot wasm, `raster` and the rest of the renderer's thread `pool`, the rest of the `renderer`,
// and the other processes Chromium traced: the browser's `autofill` and the rest of the `browser`,
// the `gpu` process).
// The groups are measure.mjs's: 1,000 partitions × 50 consumers (two subscription sets), with
// --big 100,000 × 500, with --million 1,000,000 × 2,000, each opened from a `kap link`.
// PLAYGROUND_DIST compares another build (see ../browser.mjs).
import { writeFileSync } from 'node:fs';
import { sayWhen, startWithGroup } from './shape.mjs';

const args = process.argv.slice(2);
const option = (name, otherwise) => (args.includes(name) ? args[args.indexOf(name) + 1] : otherwise);
const RUNS = Number(option('--runs', 1));
const OUT = option('--out', null);
const TASKS = args.includes('--tasks');
// --cold: no navigation to the page before the traced one, as measure.mjs opens each group (a new
// page with nothing of the page cached: its wasm and scripts fetched and compiled afresh).
const COLD = args.includes('--cold');
// v8.wasm and its detailed events name the workers' and the page's wasm compiles (lazy, and the
// optimising tier-up on V8's pool) in --tasks' `beside it`.
const CATEGORIES = 'devtools.timeline,blink.user_timing,v8.execute,toplevel,v8,v8.wasm,disabled-by-default-v8.wasm.detailed';

/** The first answer painted, the consumer rows the opening mounts in (the others come as the page scrolls). */
const OPENED = `(() => { const r = document.querySelector('.results');
  return r && r.getAttribute('aria-busy') === 'false' && r.dataset.shown === r.dataset.version && r.dataset.shown !== '0'
    && !document.querySelector('ol.consumers[aria-busy="true"]'); })()`;

/** In the page, before anything runs: long tasks, and what each batch of mutations added, when. */
const INSTRUMENT = () => {
  window.__long = [];
  window.__added = [];
  window.__origin = performance.now();
  performance.mark('opening-origin');
  let elements = 0;
  new MutationObserver((records) => {
    const now = document.getElementsByTagName('*').length;
    const added = records.flatMap((r) => [...r.addedNodes]).find((n) => n.nodeType === 1);
    // A part in a form of its own (app.rs's `Fields`) is named by what the form holds.
    const first = added?.matches('form.fields') ? added.firstElementChild ?? added : added;
    if (now > elements && first) {
      const name = first.tagName.toLowerCase() + (first.classList[0] ? `.${first.classList[0]}` : '');
      window.__added.push([performance.now(), now - elements, name]);
    }
    elements = now;
  }).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => [Math.round(e.startTime), Math.round(e.duration)]))).observe({ type: 'longtask', buffered: true });
};

function kind(name) {
  if (name === 'Layout') return 'layout';
  if (name === 'UpdateLayoutTree') return 'style';
  if (name === 'PrePaint') return 'prepaint';
  if (name === 'Paint') return 'paint';
  if (name === 'Layerize' || name === 'Commit') return 'layers';
  if (/GC|Scavenge/.test(name)) return 'gc';
  if (name === 'ParseHTML') return 'parse';
  if (/^(FunctionCall|EvaluateScript|TimerFire|FireAnimationFrame|RunMicrotasks|HandlePostMessage|FireIdleCallback|v8|V8)/.test(name)) return 'script';
  return 'other';
}

/** Complete events of one thread, top-level ones only (a task and nothing inside it). */
function topLevel(events) {
  const sorted = events.filter((e) => e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tops = [];
  let end = -Infinity;
  for (const e of sorted) {
    if (e.ts >= end) {
      tops.push(e);
      end = e.ts + e.dur;
    }
  }
  return { sorted, tops };
}

/** A task's own time by kind, in ms. */
function ownTimes(task, sorted) {
  const inside = sorted.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
  const own = new Map();
  const stack = [{ e: task, children: 0 }];
  const close = (upTo) => {
    while (stack.length > 1 && stack.at(-1).e.ts + stack.at(-1).e.dur <= upTo) {
      const done = stack.pop();
      own.set(kind(done.e.name), (own.get(kind(done.e.name)) ?? 0) + done.e.dur - done.children);
      stack.at(-1).children += done.e.dur;
    }
  };
  for (const e of inside) {
    close(e.ts);
    stack.push({ e, children: 0 });
  }
  close(Infinity);
  own.set('task', task.dur - stack[0].children);
  return [...own].filter(([, us]) => us >= 500).sort((a, b) => b[1] - a[1]).map(([k, us]) => `${k} ${(us / 1000).toFixed(1)}`).join(', ');
}

const { env, url } = await startWithGroup(args);
try {
  for (let run = 0; run < RUNS; run++) {
    const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(INSTRUMENT);
    const saidOpened = await sayWhen(page, OPENED, 'opening:opened');
    if (!COLD) await page.goto(env.url);
    const cdp = await page.context().newCDPSession(page);
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const traced = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
    await page.goto('about:blank');
    const t0 = Date.now();
    const opened = saidOpened(900_000);
    await page.goto(url);
    await opened;
    const load = Date.now() - t0;
    const seen = await page.evaluate(() => ({ origin: window.__origin, added: window.__added, long: window.__long }));
    await cdp.send('Tracing.end');
    await traced;
    await page.close();
    if (OUT) writeFileSync(OUT.replace(/(\.json)?$/, `-${run}.json`), JSON.stringify(events));

    const thread = (e) => `${e.pid}:${e.tid}`;
    const names = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [thread(e), e.args.name]));
    const mark = events.filter((e) => e.name === 'opening-origin').sort((a, b) => b.ts - a.ts)[0];
    const mainKey = thread(mark);
    const { sorted, tops } = topLevel(events.filter((e) => thread(e) === mainKey));
    const zero = mark.ts - seen.origin * 1000; // the page's performance.now() 0, on the trace's clock
    const tasks = tops.filter((t) => t.ts >= mark.ts);
    const addedIn = (t) => seen.added.filter(([at]) => zero + at * 1000 >= t.ts && zero + at * 1000 <= t.ts + t.dur);
    // The other threads of the page's renderer that do its work: V8's pool (compiles) and the workers.
    const others = [...names]
      .filter(([key, name]) => key.startsWith(`${mark.pid}:`) && key !== mainKey && /ThreadPool|DedicatedWorker/.test(name))
      .flatMap(([key]) => topLevel(events.filter((e) => thread(e) === key)).tops);
    // Every other thread's top-level tasks, by who runs them and what they did, for --tasks: what
    // shared the cores. A compute worker's task is its `job` (a request from the page) or its
    // `start` (its script, its wasm compiled and instantiated); V8's pool runs the optimising
    // `tier-up` of hot wasm functions (the page's and the workers'), the software `raster`, and
    // the rest (`pool`: JavaScript compiles, GC); `autofill` is the browser's parsing of the
    // page's form fields, `browser` the rest of the browser process, `gpu` the GPU process (the
    // display compositor).
    const processes = new Map(events.filter((e) => e.name === 'process_name').map((e) => [e.pid, e.args.name]));
    const kindOf = (key, top, inside) => {
      const name = names.get(key) ?? '';
      const has = (pattern) => inside.some((e) => pattern.test(e.name));
      if (!key.startsWith(`${mark.pid}:`)) {
        if (/GPU/.test(processes.get(Number(key.split(':')[0])) ?? '')) return 'gpu';
        return /autofill/.test(top.args?.src_file ?? '') ? 'autofill' : /Browser/.test(processes.get(Number(key.split(':')[0])) ?? '') ? 'browser' : 'other processes';
      }
      if (/DedicatedWorker/.test(name)) return has(/^HandlePostMessage$/) ? 'worker job' : 'worker start';
      if (has(/^wasm\.TopTierCompilation$/)) return 'tier-up';
      if (/ThreadPool|Tile/.test(name)) return top.name === 'TaskGraphRunner::RunTask' || has(/Raster/) ? 'raster' : 'pool';
      return 'renderer';
    };
    const kinds = (key) => {
      const { sorted, tops } = topLevel(events.filter((e) => thread(e) === key));
      let at = 0;
      return tops.map((top) => {
        const inside = [];
        while (at < sorted.length && sorted[at].ts < top.ts + top.dur) {
          if (sorted[at] !== top && sorted[at].ts >= top.ts) inside.push(sorted[at]);
          at++;
        }
        return [kindOf(key, top, inside), top];
      });
    };
    const everyOther = TASKS ? [...names].filter(([key]) => key !== mainKey).flatMap(([key]) => kinds(key)) : [];
    const sharedWith = (t) => {
      const by = new Map();
      for (const [kind, e] of everyOther) {
        const overlap = Math.min(t.ts + t.dur, e.ts + e.dur) - Math.max(t.ts, e.ts);
        if (overlap > 0) by.set(kind, (by.get(kind) ?? 0) + (overlap * (e.tdur ?? e.dur)) / Math.max(1, e.dur));
      }
      return [...by].filter(([, us]) => us >= 1000).sort((a, b) => b[1] - a[1]).map(([g, us]) => `${g} ${(us / 1000).toFixed(0)}`).join(', ');
    };
    // The page's 'longtask' entries (start, duration in the page's ms) and the trace task each one is.
    const longIn = (t) => seen.long.filter(([at]) => Math.abs(zero + at * 1000 - t.ts) < 2000);
    const editing = tasks.filter((t) => addedIn(t).some(([, , name]) => /^(section\.editor|li\.consumer|tbody)/.test(name)));
    const editingEnd = Math.max(...editing.map((t) => t.ts + t.dur));
    let busy = 0;
    let busyEditing = 0;
    for (const t of tasks.filter((t) => t.dur >= 10_000)) {
      for (const e of others) {
        const overlap = Math.min(t.ts + t.dur, e.ts + e.dur) - Math.max(t.ts, e.ts);
        if (overlap <= 0) continue;
        const cpu = (overlap * (e.tdur ?? e.dur)) / Math.max(1, e.dur);
        busy += cpu;
        if (t.ts < editingEnd) busyEditing += cpu;
      }
    }
    const cpu = (t) => (t.tdur ?? 0) / 1000;
    const parts = tasks.filter((t) => addedIn(t).length).map((t) => [addedIn(t)[0][2], +cpu(t).toFixed(1)]);
    if (TASKS) {
      for (const t of tasks.filter((t) => t.dur >= 10_000 || addedIn(t).length)) {
        const added = addedIn(t).map(([, n, name]) => `${n} from ${name}`).join('; ');
        const long = longIn(t).length ? ` [longtask ${longIn(t).map(([, d]) => d).join(', ')}]` : '';
        const shared = sharedWith(t);
        console.log(`  +${((t.ts - zero) / 1000).toFixed(0)} ms: ${(t.dur / 1000).toFixed(1)} ms (CPU ${cpu(t).toFixed(1)})${long}: ${ownTimes(t, sorted)}${added ? ` | added ${added}` : ''}${shared ? ` | beside it: ${shared}` : ''}`);
      }
      // A longtask entry no task of the page's thread after the page's first script matches.
      for (const [at, d] of seen.long.filter(([at]) => !tasks.some((t) => Math.abs(zero + at * 1000 - t.ts) < 2000))) {
        console.log(`  longtask at ${at} ms (${d} ms): no task of the page's thread after its first script starts there`);
      }
    }
    const summary = {
      run,
      load,
      sum: Math.round(tasks.reduce((a, t) => a + cpu(t), 0)),
      maxCpu: +Math.max(...tasks.map(cpu)).toFixed(1),
      maxWall: Math.round(Math.max(...tasks.map((t) => t.dur)) / 1000),
      longest: Math.max(0, ...seen.long.map(([, d]) => d)),
      others: Math.round(busy / 1000),
      othersEditing: Math.round(busyEditing / 1000),
      parts,
    };
    console.log(`summary ${JSON.stringify(summary)}`);
  }
} finally {
  await env.stop();
}

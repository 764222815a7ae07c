// What the page's thread waits for at the opening: the Linux scheduler's own counts for the renderer's
// main thread (`/proc/PID/task/TID/schedstat`: time on a core, time runnable but waiting for one;
// `status`: switches it asked for and preemptions) from the navigation to the first painted answer
// with the consumer rows the opening mounts in, against the page's 'longtask' entries, and the CPU every process of the
// machine used meanwhile (Chromium's, this Node's, everyone else's) with the VM's steal
// (`/proc/stat`). Linux only; no tracing (it would add its own work). Not a test; asserts nothing.
//
//   node www/tests/perf/waits.mjs [--big | --million] [--runs 3] [--cold]
//
// Each run prints one line (JSON), times in ms: `wall` (navigation to that paint), `longtasks` (their
// sum and the longest), `main.cpu` and `main.runnable` (the page's thread on a core, and waiting for
// one), `main.asleep` (the rest of the window: idle between tasks, or blocked inside one: sync IPC),
// `main.preempted` (involuntary switches), and `cpu` by who used it. PLAYGROUND_DIST compares another
// build (see ../browser.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { sayWhen, startWithGroup } from './shape.mjs';

const args = process.argv.slice(2);
const RUNS = Number(args.includes('--runs') ? args[args.indexOf('--runs') + 1] : 3);
// --cold: no navigation to the page before the measured one (as opening.mjs --cold, as measure.mjs opens
// each group): its wasm and scripts fetched and compiled afresh.
const COLD = args.includes('--cold');
const TICK_MS = 10; // USER_HZ 100: /proc's utime and stime are in 10 ms ticks

/** The first answer painted, the consumer rows the opening mounts in (as opening.mjs). */
const OPENED = `(() => { const r = document.querySelector('.results');
  return r && r.getAttribute('aria-busy') === 'false' && r.dataset.shown === r.dataset.version && r.dataset.shown !== '0'
    && !document.querySelector('ol.consumers[aria-busy="true"]'); })()`;

const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // the process or thread ended
  }
};

/** Every process: its role (Chromium's by `--type`, this Node, or the machine's other work) and CPU ticks. */
function processes() {
  const all = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const stat = read(`/proc/${pid}/stat`);
    const cmdline = read(`/proc/${pid}/cmdline`);
    if (!stat || cmdline === null) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const type = /--type=([a-z-]+)/.exec(cmdline)?.[1];
    const chromium = /chrom/i.test(cmdline.split('\0')[0]);
    const role = Number(pid) === process.pid ? 'node (this script, Playwright, the test server)'
      : chromium ? `chromium ${type ?? 'browser'}${/--top-chrome-webui/.test(cmdline) ? ' (the browser\'s own UI)' : ''}` : /node/.test(cmdline.split('\0')[0]) ? 'node (others)' : 'rest of the machine';
    all.set(pid, { role, ticks });
  }
  return all;
}

/** A thread's time on a core and runnable (ns), and its voluntary and involuntary switches. */
function thread(pid, tid = pid) {
  const [cpu, runnable] = (read(`/proc/${pid}/task/${tid}/schedstat`) ?? '0 0').split(' ').map(Number);
  const status = read(`/proc/${pid}/task/${tid}/status`) ?? '';
  const count = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { cpu, runnable, voluntary: count('voluntary_ctxt_switches'), preempted: count('nonvoluntary_ctxt_switches') };
}

/** A renderer's threads' time on a core (ns), summed by the thread's name (the main thread's is the process's). */
function threadsOf(pid) {
  const by = new Map();
  for (const tid of (() => { try { return readdirSync(`/proc/${pid}/task`); } catch { return []; } })()) {
    const name = tid === pid ? 'main' : (read(`/proc/${pid}/task/${tid}/comm`) ?? '?').trim();
    by.set(name, (by.get(name) ?? 0) + thread(pid, tid).cpu);
  }
  return by;
}

/** The machine's CPU ticks: busy (user, nice, system, irq, softirq), idle (with iowait) and steal. */
function machine() {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal };
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

const { env, url } = await startWithGroup(args);
try {
  for (let run = 0; run < RUNS; run++) {
    const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(() => {
      window.__long = [];
      new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask', buffered: true });
    });
    // The page says when it has opened (`shape.mjs`'s `sayWhen`): Playwright's `waitForFunction`
    // would run its own injected script in the page, a long task of its own, during the opening.
    const saidOpened = await sayWhen(page, OPENED, 'waits:opened');
    if (!COLD) await page.goto(env.url);
    await page.goto('about:blank');
    const before = { procs: processes(), machine: machine(), at: performance.now() };
    const renderers = [...before.procs].filter(([, p]) => p.role === 'chromium renderer').map(([pid]) => pid);
    const threadsBefore = new Map(renderers.map((pid) => [pid, thread(pid)]));
    const poolBefore = new Map(renderers.map((pid) => [pid, threadsOf(pid)]));
    const opened = saidOpened(900_000);
    await page.goto(url);
    await opened;
    const after = { procs: processes(), machine: machine(), at: performance.now() };
    const long = await page.evaluate(() => window.__long);
    // The page's renderer: the one whose main thread ran most in the window (a new one starts from zero).
    const [pid, main] = [...after.procs]
      .filter(([, p]) => p.role === 'chromium renderer')
      .map(([pid]) => {
        const was = threadsBefore.get(pid) ?? { cpu: 0, runnable: 0, voluntary: 0, preempted: 0 };
        const now = thread(pid);
        return [pid, { cpu: now.cpu - was.cpu, runnable: now.runnable - was.runnable, voluntary: now.voluntary - was.voluntary, preempted: now.preempted - was.preempted }];
      })
      .sort((a, b) => b[1].cpu - a[1].cpu)[0];
    const pool = threadsOf(pid);
    for (const [name, ns] of poolBefore.get(pid) ?? []) pool.set(name, (pool.get(name) ?? 0) - ns);
    await page.close();
    const wall = after.at - before.at;
    const cpu = {};
    for (const [id, p] of after.procs) {
      const used = (p.ticks - (before.procs.get(id)?.ticks ?? 0)) * TICK_MS;
      if (used > 0) cpu[p.role] = (cpu[p.role] ?? 0) + used;
    }
    const ticks = (k) => after.machine[k] - before.machine[k];
    const ms = (ns) => Math.round(ns / 1e6);
    console.log(JSON.stringify({
      load_average: loadAverage(),
      wall: Math.round(wall),
      longtasks: { count: long.length, sum: Math.round(long.reduce((a, b) => a + b, 0)), longest: Math.round(Math.max(0, ...long)) },
      main: { pid, cpu: ms(main.cpu), runnable: ms(main.runnable), asleep: Math.round(wall - ms(main.cpu) - ms(main.runnable)), switches: main.voluntary, preempted: main.preempted },
      cpu,
      renderer_threads: Object.fromEntries([...pool].map(([name, ns]) => [name, ms(ns)]).filter(([, v]) => v >= 5).sort((a, b) => b[1] - a[1])),
      machine: { busy_pct: Math.round((100 * ticks('busy')) / (ticks('busy') + ticks('idle') + ticks('steal'))), steal_ticks: ticks('steal') },
    }));
  }
} finally {
  await env.stop();
}

// Shared set-up for the browser tests: Debian's Chromium driven by playwright-core, and the page
// under test. PLAYGROUND_URL points the tests at a running server (e.g. `.ci/serve`'s
// http://127.0.0.1:8080/); without it, dist/ (from `trunk build`; PLAYGROUND_DIST names another
// directory) is served on a free port.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDir } from './static-server.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = process.env.PLAYGROUND_DIST
  ? process.env.PLAYGROUND_DIST.replace(/\/?$/, '/')
  : fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * The `--disable-features` Playwright passes (playwright-core 1.65's chromiumSwitches), exactly:
 * Chromium honours only the last `--disable-features` of its command line, so `start` drops this
 * one and passes it again with [`DISABLED_FEATURES`] added.
 */
const PLAYWRIGHTS_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin',
  'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium's own work that is no part of the page's, turned off. Chromium 156 loads its address
 * bar's suggestion popup (two chrome://omnibox-popup.top-chrome pages) in a renderer of its own for
 * every new profile, and each `browser.newPage()` is one: 350–660 ms of CPU in the first second of
 * every page the tests and the perf scripts open, on the same two cores. A person's browser does it
 * once, when it starts. With it, 7 of 20 openings at 100,000 × 500 had a task over 50 ms (load
 * median 1.31 s); without it, 2 of 20 (1.04 s; README, "Stop 30").
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHTS_DISABLED_FEATURES, ...DISABLED_FEATURES].join(',')}`,
];

/**
 * One server and browser for a test file: registers the set-up and tear-down hooks and returns the
 * environment, filled in once the hooks have run.
 */
export function useBrowser() {
  const env = {};
  before(async () => Object.assign(env, await start()));
  after(async () => env.stop?.());
  return env;
}

/**
 * Starts the server (unless PLAYGROUND_URL is set) and the browser. `headers` go on every response
 * of the server started here (not on PLAYGROUND_URL's).
 */
export async function start({ headers } = {}) {
  let server = null;
  let url = process.env.PLAYGROUND_URL;
  if (!url) {
    if (!existsSync(DIST + 'index.html')) throw new Error(`${DIST}index.html is missing: run trunk build first`);
    server = await serveDir(DIST, { headers });
    url = server.url;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: [`--disable-features=${PLAYWRIGHTS_DISABLED_FEATURES.join(',')}`],
  });
  try {
    checkDisabledFeatures();
  } catch (e) {
    await browser.close();
    throw e;
  }
  return {
    url,
    browser,
    async stop() {
      await browser.close();
      await server?.close();
    },
  };
}

/**
 * Checks that the browser just launched (a child of this process) got one `--disable-features`, ours:
 * a second means Playwright's own list changed (an upgrade) and `PLAYWRIGHTS_DISABLED_FEATURES`
 * must follow it, or ours would silently turn its list off.
 */
function checkDisabledFeatures() {
  let children;
  try {
    children = readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean),
    );
  } catch {
    console.warn('browser.mjs: no /proc/PID/task/TID/children here: Chromium\'s --disable-features not checked');
    return;
  }
  for (const child of children) {
    let args;
    try {
      args = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone already
    }
    if (!args.some((arg) => arg === '--remote-debugging-pipe')) continue;
    const lists = args.filter((arg) => arg.startsWith('--disable-features='));
    if (lists.length !== 1 || !DISABLED_FEATURES.every((feature) => lists[0].split(/[=,]/).includes(feature))) {
      throw new Error(`Chromium was launched with ${lists.join(' ')}: Playwright's own --disable-features changed; ` +
        'copy it into browser.mjs\'s PLAYWRIGHTS_DISABLED_FEATURES');
    }
    return;
  }
  console.warn('browser.mjs: the browser launched is not among this process\'s children: its --disable-features not checked');
}

/** Collects a page's uncaught exceptions and console errors (of every frame) into an array. */
export function collectErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return errors;
}

/** A button of the page's header, by name: on a phone it waits behind Menu, opened first. */
export async function headerButton(page, name) {
  const button = page.getByRole('button', { name, exact: true });
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if (!(await button.isVisible()) && (await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') {
    await menu.click();
  }
  return button;
}

/**
 * Opens the playground in a new page (a new browser context: its own, empty storage), collecting
 * page errors, and waits for the app to render. `suffix` goes after the base URL (`#v1.…`,
 * `?embed#…`).
 */
export async function openPlayground(env, suffix = '') {
  const page = await env.browser.newPage();
  const errors = collectErrors(page);
  await page.goto(env.url + suffix);
  await page.waitForSelector('section[data-strategy]', { timeout: 30_000 });
  await resultsShown(page);
  // The consumers editor reveals its first rows a slice per frame, after the answer on a slow machine.
  await page.waitForFunction(() => !document.querySelector('ol.consumers[aria-busy="true"]'), null, { timeout: 30_000 });
  return { page, errors };
}

/**
 * Waits until the results region paints the answer for the scenario on screen: the compute worker
 * answers after the page has drawn the edit, so the panels can still show the previous version.
 */
export function resultsShown(page, timeout = 30_000) {
  return page.waitForFunction(
    () => {
      const r = document.querySelector('[data-version]');
      return r && r.getAttribute('aria-busy') === 'false' && r.dataset.shown === r.dataset.version;
    },
    null,
    { timeout },
  );
}

/**
 * Waits until the results region shows, painted, a version above `version`: a small group's edit
 * whose answer is not in yet is held back from the screen (`state::Outbox::holding`), so just after
 * an edit the region can still show the version before it, painted and not busy.
 */
export async function shownAbove(page, version, timeout = 30_000) {
  await page.waitForFunction((v) => BigInt(document.querySelector('[data-version]').dataset.version) > BigInt(v), String(version), { timeout });
  await resultsShown(page, timeout);
}

/** A debug build's render counts, per component (the document's `data-renders-*`; none in a release build). */
export const renderCounts = (page) =>
  page.evaluate(() => Object.fromEntries(Object.entries(document.documentElement.dataset).filter(([k]) => k.startsWith('renders'))));

/** The name of the element that has the focus (its aria-label, else its text); null for none. */
export const focusedName = (page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    return !e || e === document.body ? null : (e.getAttribute('aria-label') ?? e.textContent);
  });

/**
 * JS that types `n` into topic `name`'s partition count and applies it at once (`input`, then
 * `change`, as Enter or leaving the field do): for `page.evaluate` or a timed edit.
 */
export const typedCount = (name, n) => `{
  const label = [...document.querySelectorAll('label.field')].find((l) => l.querySelector('.label').textContent === 'Partitions of ${name}');
  const input = label.querySelector('input');
  input.value = '${n}';
  input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: '${n}' }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}`;

export const STRATEGIES = ['range', 'roundrobin', 'sticky', 'cooperative-sticky'];

/**
 * A strategy's panel on screen (any strategy's: `strategy` left out). While a count is typed, a
 * copy of the panels laid out ahead with the draft's answer is in the page, hidden
 * (`.panels-copy.ahead`, ui::ahead), and for a frame after the key that shows it the copy it
 * replaced (`.panels-copy.retired`): their panels are not on screen.
 */
export const panelSelector = (strategy) =>
  `section${strategy ? `[data-strategy="${strategy}"]` : '[data-strategy]'}:not(.panels-copy:is(.ahead, .retired) *)`;

const chipSelector = (strategy, member) => `${panelSelector(strategy)} [data-member="${member}"] [data-partition]`;

/** The partitions a member's row shows in a strategy's panel, in order. */
export function chips(page, strategy, member) {
  return page.$$eval(chipSelector(strategy, member), (els) =>
    els.map((e) => {
      if (e.textContent !== e.dataset.partition) throw new Error(`chip text ${e.textContent} != ${e.dataset.partition}`);
      return e.dataset.partition;
    }),
  );
}

/** Waits until a member's row shows exactly `expected` (the page re-renders asynchronously). */
export async function waitForChips(page, strategy, member, expected, timeout = 10_000) {
  await page
    .waitForFunction(
      ([selector, want]) => [...document.querySelectorAll(selector)].map((e) => e.dataset.partition).join(' ') === want,
      [chipSelector(strategy, member), expected.join(' ')],
      { timeout },
    )
    .catch(() => {}); // on timeout, the assertion that follows shows what the page has instead
}

/**
 * Every panel's rows: strategy → member → the chips of its current assignment, in order. Members
 * that are shown with no partitions map to [].
 */
export function panels(page, attribute = 'partition') {
  return page.$$eval(
    panelSelector(),
    (sections, attribute) =>
      Object.fromEntries(
        sections.map((s) => [
          s.dataset.strategy,
          Object.fromEntries(
            [...s.querySelectorAll('[data-member]')].map((row) => [
              row.dataset.member,
              [...row.querySelectorAll(`[data-${attribute}]`)].map((chip) => chip.getAttribute(`data-${attribute}`)),
            ]),
          ),
        ]),
      ),
    attribute,
  );
}

/** Every panel's revoked chips: strategy → member → the partitions shown as revoked. */
export const revokedChips = (page) => panels(page, 'revoked');

/** Waits until `panels(page)` equals `expected` (then the caller asserts, which shows any difference). */
export async function waitForPanels(page, expected, timeout = 10_000) {
  const want = JSON.stringify(normalise(expected));
  await page
    .waitForFunction(
      ([want, panel]) => {
        const seen = {};
        for (const s of document.querySelectorAll(panel)) {
          const rows = {};
          for (const row of s.querySelectorAll('[data-member]')) {
            rows[row.dataset.member] = [...row.querySelectorAll('[data-partition]')].map((c) => c.dataset.partition);
          }
          seen[s.dataset.strategy] = Object.fromEntries(Object.entries(rows).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
        }
        return JSON.stringify(seen) === want;
      },
      [want, panelSelector()],
      { timeout },
    )
    .catch(() => {});
}

/** Sorts member keys, so that two panel states compare as JSON. */
function normalise(state) {
  return Object.fromEntries(
    Object.entries(state).map(([s, rows]) => [
      s,
      Object.fromEntries(Object.entries(rows).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ]),
  );
}

/**
 * The input of a labelled field (`label.field` with its `.label` text exactly `label`). Unlike
 * getByLabel, it still finds the input while a refusal is shown: the message sits inside the
 * <label>, so it becomes part of the input's accessible name.
 */
export function field(page, label) {
  return page.locator(`label.field:has(> span.label:text-is(${JSON.stringify(label)})) input`);
}

/** The refusal shown beside a field, or null. */
export async function fieldAlert(page, label) {
  const alert = await page.$(`label.field:has(> span.label:text-is(${JSON.stringify(label)})) [role=alert]`);
  return alert && alert.textContent();
}

/** A panel's metrics: term → description, e.g. { spread: '0 (max 4, min 4)', moved: '2 (25%)' }. */
export function metrics(page, strategy) {
  return page.$$eval(`${panelSelector(strategy)} dl.metrics > div`, (divs) =>
    Object.fromEntries(divs.map((d) => [d.querySelector('dt').textContent, d.querySelector('dd').textContent])),
  );
}

/** A panel's rebalance rounds, one text per round, and the summary line under them. */
export async function timeline(page, strategy) {
  const rounds = await page.$$eval(`${panelSelector(strategy)} .timeline li`, (lis) =>
    lis.map((li) => li.textContent),
  );
  const p = await page.$(`${panelSelector(strategy)} .timeline > p`);
  return { rounds, summary: p && (await p.textContent()) };
}

/** Every panel's metrics and timeline at once: strategy → { metrics, rounds, summary }. */
export function panelDetails(page) {
  return page.$$eval(panelSelector(), (sections) =>
    Object.fromEntries(
      sections.map((s) => [
        s.dataset.strategy,
        {
          metrics: Object.fromEntries(
            [...s.querySelectorAll('dl.metrics > div')].map((d) => [
              d.querySelector('dt').textContent,
              d.querySelector('dd').textContent,
            ]),
          ),
          rounds: [...s.querySelectorAll('.timeline li')].map((li) => li.textContent),
          summary: s.querySelector('.timeline > p')?.textContent ?? null,
        },
      ]),
    ),
  );
}

/** Clicks Export JSON and returns the downloaded scenario file's text. */
export async function exportScenario(page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export JSON', exact: true }).click(),
  ]);
  const { readFile } = await import('node:fs/promises');
  return readFile(await download.path(), 'utf8');
}

/** The working scenario the page saved in localStorage (null if none). */
export const savedScenario = (page) =>
  page.evaluate(() => localStorage.getItem('kafka-assignor-playground/scenario'));

/**
 * Waits until the saved working scenario (written with the link ~300 ms after an edit) has these
 * topics (name → partitions) and, if given, these consumers (id → subscribed topics); resolves to
 * its text.
 */
export async function waitForSaved(page, topics, consumers = null, timeout = 10_000) {
  const handle = await page.waitForFunction(
    ([topics, consumers]) => {
      const text = localStorage.getItem('kafka-assignor-playground/scenario');
      if (!text || !location.hash.startsWith('#v1.')) return false;
      const saved = JSON.parse(text);
      const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
      if (!same(Object.fromEntries(saved.topics.map((t) => [t.name, t.partitions])), topics)) return false;
      if (consumers && !same(Object.fromEntries(saved.consumers.map((c) => [c.id, c.topics])), consumers)) return false;
      return text;
    },
    [topics, consumers],
    { timeout },
  );
  return handle.jsonValue();
}

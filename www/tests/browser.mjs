// Shared set-up for the browser tests: Debian's Chromium driven by playwright-core, and the page
// under test. PLAYGROUND_URL points the tests at a running server (e.g. `.ci/serve`'s
// http://127.0.0.1:8080/); without it, dist/ (from `trunk build`) is served on a free port.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveDir } from './static-server.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

/** Starts the server (unless PLAYGROUND_URL is set) and the browser. */
export async function start() {
  let server = null;
  let url = process.env.PLAYGROUND_URL;
  if (!url) {
    if (!existsSync(DIST + 'index.html')) throw new Error(`${DIST}index.html is missing: run trunk build first`);
    server = await serveDir(DIST);
    url = server.url;
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    url,
    browser,
    async stop() {
      await browser.close();
      await server?.close();
    },
  };
}

/** Opens the playground in a new page, collecting page errors, and waits for the app to render. */
export async function openPlayground(env) {
  const page = await env.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(env.url);
  await page.waitForSelector('section[data-strategy]', { timeout: 30_000 });
  return { page, errors };
}

const chipSelector = (strategy, member) =>
  `section[data-strategy="${strategy}"] [data-member="${member}"] [data-partition]`;

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

// The embed (`?embed#v1.…`) inside another site's page: a sandboxed <iframe> (scripts only, so
// an opaque origin with no storage) and the exact snippet `kap link --embed` prints.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { collectErrors, panels, start, STRATEGIES } from './browser.mjs';
import { kap, link, show, shownChips } from './kap.mjs';

let env;
let host;
const pages = new Map();
before(async () => {
  // The playground's server sends Access-Control-Allow-Origin: * as GitHub Pages does: a frame
  // with an opaque origin loads the module script and the wasm in CORS mode.
  env = await start({ headers: { 'access-control-allow-origin': '*' } });
  // The documentation site that embeds it, on another origin.
  host = createServer((req, res) => {
    const body = pages.get(req.url);
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
});
after(async () => {
  await env?.stop();
  await new Promise((resolve) => host?.close(resolve) ?? resolve());
});

const hostUrl = (path) => `http://127.0.0.1:${host.address().port}${path}`;

/** Serves a documentation page holding `iframe`, opens it and waits for the embed to render. */
async function openDocsPage(path, iframe) {
  pages.set(path, `<!doctype html><html><head><title>Docs</title><link rel="icon" href="data:,"></head><body><h1>How Kafka assigns partitions</h1>${iframe}<p>More text.</p></body></html>`);
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = collectErrors(page);
  await page.goto(hostUrl(path));
  const frame = page.frameLocator('iframe');
  await frame.locator('section[data-strategy]').first().waitFor({ timeout: 30_000 });
  const handle = await page.$('iframe');
  return { page, errors, frame: await handle.contentFrame() };
}

test('in a sandboxed iframe (no storage) the embed shows every panel and the open-in link', async () => {
  const scenario = kap(['preset', 'roundrobin-uneven']);
  const { url } = link(scenario, env.url, { embed: true });
  const full = link(scenario, env.url);
  assert.match(url, /\?embed#v1\./);
  const { page, errors, frame } = await openDocsPage(
    '/sandboxed.html',
    `<iframe sandbox="allow-scripts" src="${url}" title="Roundrobin" width="100%" height="600" style="border:0"></iframe>`,
  );
  // The frame really is without storage.
  assert.match(await frame.evaluate(() => { try { localStorage; return 'storage'; } catch (e) { return e.name; } }), /SecurityError/);

  const expected = shownChips(show(scenario));
  assert.deepEqual(await panels(frame), expected);
  assert.deepEqual(Object.keys(expected), STRATEGIES);
  assert.equal(await frame.$eval('.embed-title', (e) => e.textContent), 'Roundrobin with uneven subscriptions');
  // Read-only: no editors, no walkthrough buttons.
  assert.equal(await frame.$$eval('input, select, textarea, .explain-toggle', (els) => els.length), 0);
  const open = await frame.$eval('a.open', (a) => ({ href: a.href, target: a.target, text: a.textContent }));
  assert.deepEqual(open, { href: full, target: '_blank', text: 'Open in the Kafka Assignor Playground ↗' });
  // The frame's address stays the link it was given.
  assert.equal(frame.url(), url);
  // Uncaught exceptions and console errors of the frame show here too.
  assert.deepEqual(errors, []);
  await page.close();
});

test(
  'in a sandboxed iframe the embed is styled and logs no errors',
  async () => {
    const { url } = link(kap(['preset', 'roundrobin-uneven']), env.url, { embed: true });
    const { page, errors, frame } = await openDocsPage(
      '/sandboxed-style.html',
      `<iframe sandbox="allow-scripts" src="${url}" width="100%" height="600" style="border:0"></iframe>`,
    );
    // style.css lays the panels out side by side; unstyled (an integrity check the opaque origin
    // cannot pass blocks the stylesheet), they stack.
    const tops = await frame.$$eval('section[data-strategy]', (s) => s.map((e) => Math.round(e.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size < tops.length, true, `panel tops ${tops}: not laid out`);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('the snippet kap link --embed prints renders the embed, with no errors', async () => {
  const scenario = kap(['preset', 'sticky-crash-c3']);
  const { snippet } = link(scenario, env.url, { embed: true });
  assert.match(snippet, /^<iframe src="[^"]+\?embed#v1\.[^"]+" title="Sticky: C3 crashes, C1 and C2 keep what they had" /);
  const { page, errors, frame } = await openDocsPage('/snippet.html', snippet);
  assert.deepEqual(await panels(frame), shownChips(show(scenario)));
  // The diff of the preset's crash is shown (the view's default).
  assert.deepEqual(await frame.$$eval('section[data-strategy="range"] [data-revoked]', (els) => els.map((e) => e.dataset.revoked)), ['T-2']);
  assert.equal(await frame.$$eval('a.open', (a) => a.length), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test(
  'the snippet\'s height shows the whole embed, down to the open-in link',
  async () => {
    const scenario = kap(['preset', 'sticky-crash-c3']);
    const { snippet } = link(scenario, env.url, { embed: true });
    const { page, frame } = await openDocsPage('/snippet-height.html', snippet);
    const height = Number(snippet.match(/height="(\d+)"/)[1]);
    const content = await frame.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(content <= height, `the embed is ${content}px tall in a ${height}px iframe`);
    await page.close();
  },
);

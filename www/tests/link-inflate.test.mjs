// Links are read by the page's lead compute worker (`work::OpenRequest`, `Request::Read`; issue 9:
// the page's download holds no reader of links), with kap's `link::decode`: any raw deflate stream of
// the file opens, a link inflating past 16 MiB is refused in bounded time, a stream that does not
// inflate or inflates to no text is damaged, and a link pasted into an open tab is read the same
// way, the work on screen kept when it fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { field, openPlayground, resultsShown, useBrowser } from './browser.mjs';
import { kap, link } from './kap.mjs';

const env = useBrowser();

const banner = (page) => page.$eval('.banner[role=alert] span', (e) => e.textContent).catch(() => null);
const title = (page) => page.$eval('section.intro h2', (e) => e.textContent);
/** A `v1.` fragment holding these bytes, raw-deflated as the playground writes links. */
const fragment = (bytes) => `#v1.${deflateRawSync(bytes, { level: 9 }).toString('base64url')}`;

test('a link is read by the browser: the scenario kap wrote it from opens', async () => {
  const text = kap(['preset', 'sticky-crash-c3']);
  // Deflated by Node rather than by kap: any raw deflate stream of the file opens.
  const { page, errors } = await openPlayground(env, fragment(Buffer.from(JSON.stringify(JSON.parse(text)))));
  assert.equal(await title(page), 'Sticky: C3 crashes, C1 and C2 keep what they had');
  assert.equal(await banner(page), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('links that inflate past 16 MiB, to no text, or not at all are refused with their reason', async () => {
  const cases = [
    // 17 MiB of spaces: 17 KB of link, refused once 16 MiB are inflated.
    [fragment(Buffer.alloc(17 << 20, 0x20)), /^this link holds more than this version opens \(at most 16 MB of scenario, 2 MB of link\)\. A preset is shown instead\.$/],
    [fragment(Buffer.from([0xff, 0xfe, 0x7b])), /^this link is damaged, perhaps cut short when it was copied \(.*utf-8.*\)\. A preset is shown instead\.$/],
    ['#v1.AAAA', /^this link is damaged, perhaps cut short when it was copied \(.+\)\. A preset is shown instead\.$/],
    // Bytes after the end of the deflate stream: refused by the browser's inflater, and by kap's.
    [
      `#v1.${Buffer.concat([deflateRawSync(Buffer.from('{}')), Buffer.from([1, 2, 3])]).toString('base64url')}`,
      /^this link is damaged, perhaps cut short when it was copied \(.+\)\. A preset is shown instead\.$/,
    ],
  ];
  for (const [suffix, message] of cases) {
    const started = Date.now();
    const { page, errors } = await openPlayground(env, suffix);
    await page.waitForSelector('.banner[role=alert]');
    assert.match(await banner(page), message, suffix.slice(0, 40));
    assert.ok(Date.now() - started < 20_000, `${suffix.slice(0, 40)}: ${Date.now() - started} ms`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('a damaged link or one that cannot run, pasted into an open tab, leaves the work; a good one after it opens', async () => {
  const { page, errors } = await openPlayground(env);
  await field(page, 'Partitions of T1').fill('7');
  await field(page, 'Partitions of T1').press('Enter');
  await page.waitForFunction(() => location.hash.length > 10);
  const before = await title(page);
  await page.goto(env.url + '#v1.AAAA'); // same document: only the fragment changes
  await page.waitForSelector('.banner[role=alert]');
  assert.match(await banner(page), /^this link is damaged, perhaps cut short when it was copied \(.+\)\. Your work is unchanged\.$/);
  assert.equal(await title(page), before);
  assert.equal(await field(page, 'Partitions of T1').inputValue(), '7');
  // A link that reads but cannot run is refused in the opening's words, the work kept.
  const untitled = { ...JSON.parse(kap(['preset', 'sticky-crash-c1'])), title: 'a'.repeat(201) };
  await page.goto(env.url + fragment(Buffer.from(JSON.stringify(untitled))));
  await page.waitForFunction(() => document.querySelector('.banner[role=alert] span')?.textContent.startsWith('This link'));
  assert.equal(await banner(page), "This link's scenario cannot run: a title has at most 200 characters. Your work is unchanged.");
  assert.equal(await title(page), before);
  assert.equal(await field(page, 'Partitions of T1').inputValue(), '7');
  await page.goto(link(kap(['preset', 'sticky-crash-c1']), env.url));
  await page.waitForFunction(() => document.querySelector('section.intro h2')?.textContent.startsWith('Sticky: C1'));
  await resultsShown(page);
  assert.deepEqual(errors, []);
  await page.close();
});

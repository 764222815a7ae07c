// The page's form fields in forms of their own, a part of the page each (app.rs's `Fields`):
// Chromium's autofill parses the fields outside any form as one form, again each time fields are
// added anywhere in it, and a form of its own only when its own fields change (issue 9: the
// opening's parses ran beside its frames). None of those forms is ever submitted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPlayground, useBrowser } from './browser.mjs';
import { link } from './kap.mjs';

const env = useBrowser();

/** 10 topics × 100 partitions, 50 consumers (the odd ones subscribed to half the topics): panels with a Find a member field. */
function group() {
  const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
  return JSON.stringify({
    version: 1,
    title: '1000 partitions, 50 consumers',
    topics: names.map((name) => ({ name, partitions: 100 })),
    consumers: Array.from({ length: 50 }, (_, i) => ({ id: `C${i}`, topics: i % 2 ? names.slice(0, 5) : names })),
  });
}

test("each part's fields are in a form of their own, and the fields outside any form are the header's two", async () => {
  const url = link(group(), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  const fields = await page.$$eval('input, select, textarea', (all) =>
    all.map((f) => ({
      form: f.form ? [...document.forms].indexOf(f.form) : null,
      part: f.closest('header, section')?.className.split(' ')[0] ?? null,
    })),
  );
  const outside = fields.filter((f) => f.form === null);
  assert.deepEqual(outside.map((f) => f.part), ['top', 'top'], 'outside any form: the presets menu and the file input');
  // One part a form: the topics editor's, the consumers editor's, each panel's, the Configuration's.
  const parts = new Map();
  for (const f of fields.filter((f) => f.form !== null)) parts.set(f.form, new Set([...(parts.get(f.form) ?? []), f.part]));
  assert.ok([...parts.values()].every((p) => p.size === 1), `a form's fields are one part's: ${JSON.stringify([...parts.values()].map((p) => [...p]))}`);
  const forms = (part) => [...parts].filter(([, p]) => p.has(part)).length;
  assert.equal(forms('panel'), 4, "each panel's Find a member field in a form of its own");
  assert.equal(forms('editor') >= 3, true, 'the topics, consumers and weights editors each in one');
  assert.equal(forms('config'), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Enter in a panel's Find a member field submits nothing: the page stays, the field keeps its text", async () => {
  const url = link(group(), env.url);
  const { page, errors } = await openPlayground(env, url.slice(url.indexOf('#')));
  // A submission loads another document (a mark set in this one is gone) at another address (the
  // form's query); the page's own link writes change only the fragment, in the same document.
  const documentMark = () => page.evaluate(() => (window.__documentMark ??= Math.random()));
  const address = () => page.url().split('#')[0];
  const before = { mark: await documentMark(), address: address() };
  const search = page.locator('section[data-strategy="range"] .member-search input');
  await search.fill('nobody');
  await search.press('Enter');
  await page.waitForTimeout(300);
  assert.deepEqual({ mark: await documentMark(), address: address() }, before);
  assert.equal(await search.inputValue(), 'nobody');
  assert.deepEqual(errors, []);
  await page.close();
});

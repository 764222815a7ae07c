// Issue 9, the opening's type faces: the first time a page lays out text in a face (family, size,
// weight, style) the browser asks its own process for the face's rendering settings, a round trip
// that took 5 to 70 ms a face on a busy machine, and the first answer's sections brought eight new
// faces: one layout of 155 ms at 1,000 partitions × 50 consumers. index.html lays every face out,
// hidden, one a task while the wasm loads (all in one layout, their round trips were one task of
// 35–78 ms). These tests keep that sample complete (every face the page shows at its opening is
// in it), out of sight, and laid out a face a task.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';
import { Group } from './group.mjs';
import { link } from './kap.mjs';
import { PAINTED } from './perf/typing.mjs';

const env = useBrowser();

/** Ten topics of `partitions` each; `consumers` consumers, the odd ones on the first five topics. */
function mixedGroup(partitions, consumers) {
  const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
  return new Group(
    Object.fromEntries(names.map((name) => [name, partitions])),
    Array.from({ length: consumers }, (_, i) => ({ id: `C${i}`, topics: i % 2 ? names.slice(0, 5) : names })),
  );
}

/** In the page: the faces of its text in the results region, in the sample and elsewhere. */
function facesOnThePage() {
  const face = (element, pseudo = null) => {
    const style = getComputedStyle(element, pseudo);
    return [style.fontFamily, style.fontSize, style.fontWeight, style.fontStyle].join(' | ');
  };
  const faces = { results: new Set(), sample: new Set(), elsewhere: new Set() };
  const placeOf = (element) => (element.closest('.type-faces') ? 'sample' : element.closest('.results') ? 'results' : 'elsewhere');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const element = text.parentElement;
    if (!text.textContent.trim() || element.closest('[hidden], option, script')) continue;
    faces[placeOf(element)].add(face(element));
  }
  // A field's value or hint, and a file input's button, are text in faces of their own, not text nodes.
  for (const field of document.body.querySelectorAll('input:not([type=checkbox]):not([type=radio]), select, textarea')) {
    if (field.closest('[hidden]')) continue;
    faces[placeOf(field)].add(face(field));
    if (field.type === 'file') faces[placeOf(field)].add(face(field, '::file-selector-button'));
  }
  return Object.fromEntries(Object.entries(faces).map(([where, set]) => [where, [...set].sort()]));
}

/** Opens `url`, waits for its answer and every section, and checks the faces of all it shows. */
async function checkFaces(url) {
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.goto(url);
    await page.waitForFunction(PAINTED, null, { timeout: 60_000 });
    const faces = await page.evaluate(facesOnThePage);
    assert.ok(faces.results.length > 3, `the results show text in several faces: ${faces.results}`);
    const sample = new Set(faces.sample);
    const missing = [...new Set([...faces.results, ...faces.elsewhere])].filter((face) => !sample.has(face));
    assert.deepEqual(missing, [], 'faces the page shows and index.html\'s .type-faces does not');
  } finally {
    await page.close();
  }
}

test('every face a big group\'s page shows is in the sample', async () => {
  await checkFaces(link(mixedGroup(100, 50).scenarioText(), env.url));
});

test('every face a small group\'s page shows is in the sample', async () => {
  await checkFaces(link(mixedGroup(3, 4).scenarioText(), env.url));
});

test('every face the page with its first preset shows is in the sample', async () => {
  await checkFaces(env.url);
});

test('the sample of faces is out of sight, out of the way and unread', async () => {
  const page = await env.browser.newPage();
  try {
    await page.goto(env.url);
    await page.waitForFunction(PAINTED, null, { timeout: 60_000 });
    const sample = await page.evaluate(() => {
      const element = document.querySelector('.type-faces');
      const box = element.getBoundingClientRect();
      return {
        faces: element.children.length,
        hidden: element.getAttribute('aria-hidden'),
        visibility: getComputedStyle(element).visibility,
        area: box.width * box.height,
        position: getComputedStyle(element).position,
        inText: document.body.innerText.includes('Aa 1'),
      };
    });
    assert.deepEqual(sample, { faces: 20, hidden: 'true', visibility: 'hidden', area: 0, position: 'absolute', inText: false });
  } finally {
    await page.close();
  }
});

test('the sample is laid out one face a task', async () => {
  const page = await env.browser.newPage();
  try {
    // Each task ends in a microtask checkpoint, where the records of the faces shown in it are delivered together.
    await page.addInitScript(() => {
      window.__shown = [];
      new MutationObserver((records) => {
        const faces = records.filter((r) => r.target.parentElement?.matches('.type-faces') && !r.target.hidden);
        if (faces.length) window.__shown.push(faces.length);
      }).observe(document, { attributes: true, attributeFilter: ['hidden'], subtree: true });
    });
    await page.goto(env.url);
    await page.waitForFunction(PAINTED, null, { timeout: 60_000 });
    assert.deepEqual(await page.evaluate(() => window.__shown), Array(20).fill(1));
  } finally {
    await page.close();
  }
});

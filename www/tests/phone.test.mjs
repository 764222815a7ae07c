// The page on a 390 × 844 phone, read as a person reads it: the sticky header is one short row
// wherever the page is scrolled, its actions are one Menu away (by touch, keyboard and screen
// reader), and a dialog opened from it is on screen whole, scrolls inside and closes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { focusedName, openPlayground, useBrowser } from './browser.mjs';
import { link } from './kap.mjs';

const env = useBrowser();

const PHONE = { width: 390, height: 844 };
/** The most of the phone's height the header may take while the page scrolls (about 6%). */
const HEADER_AT_MOST = 56;

// A real group's size: 12 topics, 10 consumers.
const TWELVE_BY_TEN = JSON.stringify({
  version: 1,
  title: '12 topics, 10 consumers',
  topics: Array.from({ length: 12 }, (_, i) => ({ name: `orders-${i}`, partitions: 3 + (i % 5) * 3 })),
  consumers: Array.from({ length: 10 }, (_, i) => ({
    id: `consumer-${i}`,
    topics: Array.from({ length: i % 3 ? 12 : 6 }, (_, t) => `orders-${t}`),
  })),
});

async function openOnPhone() {
  const url = link(TWELVE_BY_TEN, env.url);
  const opened = await openPlayground(env, url.slice(env.url.length));
  await opened.page.setViewportSize(PHONE);
  return opened;
}

/** The header's box and whether the element just below it is the page's, not the header's. */
const header = (page) =>
  page.evaluate(() => {
    const top = document.querySelector('header.top');
    const box = top.getBoundingClientRect();
    const below = document.elementFromPoint(innerWidth / 2, box.bottom + 4);
    return { top: box.top, bottom: box.bottom, clear: !!below && !top.contains(below) };
  });

test('at 390 px the header is one short row wherever the page is scrolled, and the first field is in view', async () => {
  const { page, errors } = await openOnPhone();
  const field = page.getByRole('textbox', { name: 'Name of topic 1', exact: true });
  const opening = await header(page);
  assert.ok(opening.bottom <= HEADER_AT_MOST, `the header takes ${opening.bottom}px of 844`);
  const box = await field.boundingBox();
  assert.ok(box.y >= opening.bottom && box.y + box.height <= PHONE.height, `the first topic's name at ${box.y}px`);
  for (const y of [400, 1500, 3000]) {
    await page.evaluate((y) => scrollTo(0, y), y);
    const now = await header(page);
    assert.equal(now.top, 0, `scrolled to ${y}: the header stays at the top`);
    assert.ok(now.bottom <= HEADER_AT_MOST, `scrolled to ${y}: the header takes ${now.bottom}px`);
    assert.ok(now.clear, `scrolled to ${y}: the page shows right below the header`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("at 390 px every header action is one Menu away, by keyboard, and a dialog opened there is on screen whole", async () => {
  const { page, errors } = await openOnPhone();
  await page.evaluate(() => scrollTo(0, 1500));
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  for (const name of ['Undo', 'Share link', 'Import from Kafka']) {
    assert.equal(await page.getByRole('button', { name, exact: true }).isVisible(), false, `${name} waits behind Menu`);
  }
  // The keyboard alone: Menu, then Tab through its actions to Import from Kafka.
  await menu.focus();
  await page.keyboard.press('Enter');
  assert.equal(await menu.getAttribute('aria-expanded'), 'true');
  const reached = [];
  for (let i = 0; i < 12 && (await focusedName(page)) !== 'Import from Kafka'; i++) {
    await page.keyboard.press('Tab');
    reached.push(await focusedName(page));
  }
  for (const name of ['Recent (0)', 'Fresh start', 'Share link', 'Embed', 'Export JSON', 'Import from Kafka']) {
    assert.ok(reached.includes(name), `Tab from Menu reaches ${name}: ${JSON.stringify(reached)}`);
  }
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Import from Kafka' });
  await dialog.waitFor();
  const inView = (box) => box.x >= 0 && box.y >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height + 1;
  const box = await dialog.boundingBox();
  assert.ok(inView(box), `the dialog spans ${JSON.stringify(box)}`);
  // Its last control, scrolled to inside it, is on screen too.
  const last = dialog.getByRole('button', { name: 'Import this group' });
  await last.scrollIntoViewIfNeeded();
  assert.ok(inView(await last.boundingBox()), 'Import this group is on screen');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await focusedName(page), 'Import from Kafka');
  // Menu again closes it: the header is one row once more.
  await menu.click();
  assert.ok((await header(page)).bottom <= HEADER_AT_MOST);
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 390 px Menu closes on Escape, focus back on it, and on a tap outside the header, but not under an open dialog', async () => {
  const { page, errors } = await openOnPhone();
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  const share = page.getByRole('button', { name: 'Share link', exact: true });
  // Escape from one of its actions: the actions hide and the focus is on Menu, not lost.
  await menu.click();
  await share.focus();
  await page.keyboard.press('Escape');
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  assert.equal(await share.isVisible(), false);
  assert.equal(await focusedName(page), 'Menu');
  // A tap on the page below the header closes it too.
  await menu.click();
  assert.equal(await share.isVisible(), true);
  await page.mouse.click(195, 600);
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  assert.ok((await header(page)).bottom <= HEADER_AT_MOST);
  // With a dialog open from it, Escape closes the dialog alone, and a tap outside leaves both.
  await menu.click();
  await page.getByRole('button', { name: 'Import from Kafka', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import from Kafka' });
  await dialog.waitFor();
  await page.mouse.click(195, 830);
  assert.equal(await dialog.isVisible(), true, 'a tap outside leaves the dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await menu.getAttribute('aria-expanded'), 'true', 'the Escape was the dialog\'s');
  await page.keyboard.press('Escape');
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  assert.deepEqual(errors, []);
  await page.close();
});

// Loading each preset from the select: the page shows what `kap show --json` computes for
// `kap preset ID` (including the preset's events, e.g. a crash), and the seed articles' answers
// for three of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STRATEGIES,
  openPlayground,
  panelDetails,
  panels,
  revokedChips,
  useBrowser,
  waitForPanels,
} from './browser.mjs';
import { presets, showPreset, shownChips } from './kap.mjs';

const env = useBrowser();

/** Answers the seed articles give, checked when their preset is on screen. */
const KNOWN = {
  // After C1 crashes, sticky (and cooperative-sticky) move only C1's three partitions.
  'sticky-crash-c1': async (page) => {
    const want = { C0: ['t0-0', 't3-0', 't1-1', 't0-1'], C2: ['t1-0', 't2-1', 't2-0', 't3-1'] };
    const state = await panels(page);
    assert.deepEqual(state.sticky, want);
    assert.deepEqual(state['cooperative-sticky'], want);
    // C1 is gone from the consumers table and from every panel.
    assert.equal(await page.$('[data-consumer="C1"]'), null);
    assert.equal(await page.$('[data-member="C1"]'), null);
    const details = await panelDetails(page);
    assert.match(details.sticky.metrics.moved, /^3 \(/);
    assert.equal(details['cooperative-sticky'].metrics.paused, '0');
    // C1 crashed: what moves was not being consumed, so nothing stops.
    assert.equal(details['cooperative-sticky'].summary, 'nothing stops: no member gives up a partition it is consuming');
  },
  // After C3 crashes, C1 and C2 keep what they had and share T-2 and T-5; range and roundrobin
  // start over, so survivors give up partitions they could have kept.
  'sticky-crash-c3': async (page) => {
    const state = await panels(page);
    assert.deepEqual(state.sticky, { C1: ['T-0', 'T-3', 'T-2'], C2: ['T-1', 'T-4', 'T-5'] });
    assert.deepEqual(state['cooperative-sticky'], { C1: ['T-0', 'T-3', 'T-2'], C2: ['T-1', 'T-4', 'T-5'] });
    assert.deepEqual(state.range, { C1: ['T-0', 'T-1', 'T-2'], C2: ['T-3', 'T-4', 'T-5'] });
    assert.deepEqual(state.roundrobin, { C1: ['T-0', 'T-2', 'T-4'], C2: ['T-1', 'T-3', 'T-5'] });
    const revoked = await revokedChips(page);
    assert.deepEqual(revoked.range, { C1: [], C2: ['T-2'] });
    assert.deepEqual(revoked.roundrobin, { C1: ['T-3'], C2: ['T-4'] });
    assert.deepEqual(revoked.sticky, { C1: [], C2: [] });
  },
  // Roundrobin walks the circle skipping non-subscribers: C2 ends with 4; sticky ends 1 / 2 / 3.
  'roundrobin-uneven': async (page) => {
    const state = await panels(page);
    assert.deepEqual(state.roundrobin, { C0: ['t0-0'], C1: ['t1-0'], C2: ['t1-1', 't2-0', 't2-1', 't2-2'] });
    assert.deepEqual(state.sticky, { C0: ['t0-0'], C1: ['t1-0', 't1-1'], C2: ['t2-0', 't2-1', 't2-2'] });
  },
};

test('the select lists the presets kap lists; each shows what kap computes and the seed articles\' answers', async () => {
  const { page, errors } = await openPlayground(env);
  const listed = presets();
  const options = await page.$$eval('header select option:not([disabled])', (os) => os.map((o) => ({ id: o.value, title: o.textContent })));
  assert.deepEqual(options, listed);

  // From the last to the first, so that every load changes the page (it opens on the first).
  for (const { id, title } of [...listed].reverse()) {
    const known = KNOWN[id];
    const { shown } = showPreset(id);
    await page.selectOption('header select', id);
    await page.waitForFunction((t) => document.querySelector('section.intro h2')?.textContent === t, title);
    const expected = shownChips(shown);
    await waitForPanels(page, expected);
    assert.deepEqual(await panels(page), expected, id);
    assert.equal(await page.$eval('header select', (s) => s.value), id, `${id} is the selected option`);
    if (known) await known(page);
    // The coordinator's choice, and each panel's rounds and moves.
    assert.equal(await page.$eval('[data-group-strategy]', (e) => e.dataset.groupStrategy), shown.group_strategy, id);
    const details = await panelDetails(page);
    for (const strategy of STRATEGIES) {
      const r = shown.strategies[strategy];
      const { metrics: m, rounds } = details[strategy];
      assert.match(m.spread, new RegExp(`^${r.metrics.spread} \\(`), `${id} ${strategy} spread`);
      if (r.moved.length > 0 || Object.values(r.paused).some((l) => l.length)) {
        assert.equal(rounds.length, r.rounds.length, `${id} ${strategy} rounds`);
        assert.match(m.moved, new RegExp(`^${r.moved.length} \\(`), `${id} ${strategy} moved`);
      }
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

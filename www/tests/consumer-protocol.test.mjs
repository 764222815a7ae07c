// The consumer protocol (KIP-848) on the page: a preset switched to group.protocol=consumer shows the
// server-side panels exactly as `kap batch` answers the same group as "protocol":"consumer" lines and
// as `kap show` reports them (targets, lanes, stops); a kept partition is consumed in every lane cell;
// the protocol, remote assignor and topic ids travel in the link; the settings can be copied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportScenario, openPlayground, useBrowser } from './browser.mjs';
import { assignmentChips, kap, link, show } from './kap.mjs';

const env = useBrowser();

/** Every server panel: assignor → member → { target: chips, added: chips, revoked: chips }. */
const serverPanels = (page) =>
  page.$$eval('section[data-server-assignor]', (sections) =>
    Object.fromEntries(
      sections.map((s) => [
        s.dataset.serverAssignor,
        Object.fromEntries(
          [...s.querySelectorAll('[data-member]')].map((row) => [
            row.dataset.member,
            {
              target: [...row.querySelectorAll('[data-partition]')].map((c) => c.dataset.partition),
              added: [...row.querySelectorAll('[data-partition].added')].map((c) => c.dataset.partition),
              revoked: [...row.querySelectorAll('[data-revoked]')].map((c) => c.dataset.revoked),
            },
          ]),
        ),
      ]),
    ),
  );

/** A server panel's lanes: member → [{ after, state, consuming: chips }]. */
const lanes = (page, assignor) =>
  page.$$eval(`section[data-server-assignor="${assignor}"] tr[data-lane]`, (rows) =>
    Object.fromEntries(
      rows.map((row) => [
        row.dataset.lane,
        [...row.querySelectorAll('td[data-after]')].map((td) => ({
          after: Number(td.dataset.after),
          state: td.dataset.state,
          consuming: td.dataset.consuming ? td.dataset.consuming.split(' ') : [],
        })),
      ]),
    ),
  );

/** The exported scenario's group as `kap batch` consumer-protocol lines, one per server assignor. */
function batchAnswers(scenario, topicIds, classicStrategy) {
  const key = { uniform: 'uniform', range: 'consumer-range' };
  const lines = Object.entries(key).map(([assignor, previousKey], id) => {
    // The current target: the assignor's own, or (just switched) what the classic choice assigned.
    const previous = scenario.previous?.assignments?.[previousKey] ?? scenario.previous?.assignments?.[classicStrategy] ?? {};
    return JSON.stringify({
      id,
      protocol: 'consumer',
      strategy: assignor,
      topics: Object.fromEntries(scenario.topics.map((t) => [t.name, t.partitions])),
      topic_ids: topicIds,
      members: scenario.consumers.map((c) => ({ id: c.id, topics: c.topics, owned: previous[c.id] ?? [] })),
    });
  });
  const answers = kap(['batch'], lines.join('\n') + '\n').trim().split('\n').map((l) => JSON.parse(l));
  return Object.fromEntries(Object.keys(key).map((assignor, i) => [assignor, assignmentChips(answers[i].assignment)]));
}

test('a preset switched to the consumer protocol shows kap batch’s targets, kap show’s lanes, and no stop for kept partitions', async () => {
  const { page, errors } = await openPlayground(env, link(kap(['preset', 'sticky-crash-c1']), env.url).slice(env.url.length));
  assert.equal(await page.locator('section[data-server-assignor]').count(), 0);
  await page.locator('[data-group-protocol]').selectOption('consumer');
  await page.waitForSelector('section[data-server-assignor="uniform"] [data-member]');
  // Switched, nothing moves yet: the coordinator starts from what the classic choice assigned.
  assert.equal(await page.locator('section[data-server-assignor="uniform"] [data-moved]').getAttribute('data-moved'), '0');
  // Then a member joins, on the consumer protocol.
  await page.getByRole('button', { name: 'A consumer joins' }).click();
  await page.waitForSelector('section[data-server-assignor="uniform"] [data-member="C1"] [data-partition]');
  const text = await exportScenario(page);
  const scenario = JSON.parse(text);
  assert.equal(scenario.protocol, 'consumer');
  const shown = show(text);
  const servers = shown.consumer_protocol;
  // The ids the page shows are the ones kap derives.
  const pageIds = await page.$$eval('tr[data-topic-id]', (rows) => rows.map((r) => r.dataset.topicId));
  assert.deepEqual(pageIds, scenario.topics.map((t) => servers.topic_ids[t.name]));

  const expected = batchAnswers(scenario, servers.topic_ids, shown.group_strategy);
  const seen = await serverPanels(page);
  for (const assignor of ['uniform', 'range']) {
    const targets = Object.fromEntries(Object.entries(seen[assignor]).map(([m, row]) => [m, row.target]));
    assert.deepEqual(targets, expected[assignor], assignor);
    assert.deepEqual(assignmentChips(servers.assignors[assignor].assignment), expected[assignor]);
    // Lanes: kap show's samples, and a kept partition in every cell of its member's lane.
    const pageLanes = await lanes(page, assignor);
    const kapLanes = servers.assignors[assignor].reconciliation.lanes;
    for (const [member, row] of Object.entries(seen[assignor])) {
      const kept = row.target.filter((chip) => !row.added.includes(chip));
      for (const cell of pageLanes[member]) {
        for (const chip of kept) assert.ok(cell.consuming.includes(chip), `${assignor} ${member} stops ${chip} after ${cell.after}`);
      }
      // Each of kap's samples (a change of that member) is a column the page shows, with the same content.
      for (const sample of kapLanes[member]) {
        const cell = pageLanes[member].find((c) => c.after === sample.after);
        assert.ok(cell, `${assignor} ${member}: no column after ${sample.after}`);
        assert.deepEqual(cell.consuming, sample.consuming.map(([t, p]) => `${t}-${p}`));
        assert.equal(cell.state, sample.state);
      }
    }
    const stops = await page.$$eval(`section[data-server-assignor="${assignor}"] [data-stop]`, (lis) =>
      lis.map((li) => [li.dataset.stop, Number(li.dataset.heartbeats)]),
    );
    assert.deepEqual(stops, servers.assignors[assignor].reconciliation.stops.map((s) => [`${s.partition[0]}-${s.partition[1]}`, s.heartbeats]));
  }
  // What moving changes is kap show's, word for word.
  assert.deepEqual(await page.locator('.migration-lines > li').allTextContents(), servers.migration);
  assert.deepEqual(errors, []);
});

test('a member joining under uniform: only the moved partitions stop, the rest flow through every heartbeat', async () => {
  const text = kap(['preset', 'consumer-protocol-uniform']);
  const { page, errors } = await openPlayground(env, link(text, env.url).slice(env.url.length));
  await page.waitForSelector('section[data-server-assignor="uniform"].chosen-panel');
  const uniform = (await serverPanels(page)).uniform;
  assert.deepEqual(uniform.C3.target, ['orders-3', 'orders-5']);
  assert.deepEqual(uniform.C1.revoked, ['orders-3']);
  const stops = await page.$$eval('section[data-server-assignor="uniform"] [data-stop]', (lis) => lis.map((li) => li.dataset.stop));
  assert.deepEqual(stops, ['orders-3', 'orders-5']);
  const c0 = (await lanes(page, 'uniform')).C0;
  assert.ok(c0.every((cell) => cell.consuming.join(' ') === 'orders-0 orders-1' && cell.state === 'STABLE'));
  assert.deepEqual(errors, []);
});

test('protocol, remote assignor and a typed topic id travel in the link; the settings copy', async () => {
  const { page, errors } = await openPlayground(env, link(kap(['preset', 'consumer-protocol-uniform']), env.url).slice(env.url.length));
  await page.waitForSelector('[data-remote-assignor]');
  await page.locator('[data-remote-assignor]').selectOption('range');
  await page.waitForSelector('section[data-server-assignor="range"].chosen-panel');
  const id = page.getByLabel('Topic id of orders');
  await id.fill('nope');
  await page.waitForSelector('.protocol-editor [role=alert]');
  assert.match(await page.locator('.protocol-editor [role=alert]').textContent(), /decoded as 3 bytes/);
  await id.fill('eZUeEuqvSSGGPuIabmBwqg');
  await page.waitForSelector('tr[data-topic-id="eZUeEuqvSSGGPuIabmBwqg"]');
  // The link the page writes holds all three: it is written before the saved copy, so once the
  // saved copy has the id, the link has it too.
  await page.waitForFunction(() => {
    const saved = JSON.parse(localStorage.getItem('kafka-assignor-playground/scenario') ?? '{}');
    return saved.remote_assignor === 'range' && saved.topics?.some((t) => t.id === 'eZUeEuqvSSGGPuIabmBwqg');
  }, null, { timeout: 10_000 });
  const fragment = await page.evaluate(() => location.hash);
  const opened = await openPlayground(env, fragment);
  await opened.page.waitForSelector('section[data-server-assignor="range"].chosen-panel');
  assert.equal(await opened.page.locator('[data-group-protocol]').inputValue(), 'consumer');
  assert.equal(await opened.page.locator('[data-remote-assignor]').inputValue(), 'range');
  assert.equal(await opened.page.getByLabel('Topic id of orders').inputValue(), 'eZUeEuqvSSGGPuIabmBwqg');
  const settings = opened.page.locator('.consumer-settings');
  assert.equal(await settings.locator('li[data-client^="Java"] pre').textContent(), 'group.protocol=consumer\ngroup.remote.assignor=range');
  await settings.getByRole('button', { name: 'Copy the Java (KafkaConsumer) settings for the consumer protocol' }).click();
  assert.match(await settings.locator('li[data-client^="Java"] button').textContent(), /^(Copied|Select and copy)$/);
  // Back to classic: the server panels go, and so does group.remote.assignor.
  await opened.page.locator('[data-group-protocol]').selectOption('classic');
  await opened.page.waitForFunction(() => !document.querySelector('section[data-server-assignor]'));
  assert.equal(JSON.parse(await exportScenario(opened.page)).remote_assignor, undefined);
  assert.deepEqual([...errors, ...opened.errors], []);
});

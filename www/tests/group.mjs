// The group a browser test edits, as the test believes it is (kept independently of the page), and
// what `kap batch` assigns it. Not a test file itself (node --test picks up *.test.mjs only).
import assert from 'node:assert/strict';
import { STRATEGIES } from './browser.mjs';
import { batch } from './kap.mjs';

/**
 * The group as the test believes it is, kept independently of the page: topic → partition count
 * (in the editor's order) and the consumers in JoinGroup (table) order.
 */
export class Group {
  /** `topics`: name → partition count; `members`: [{ id, topics }]. */
  constructor(topics, members) {
    this.topics = { ...topics };
    this.members = members.map((m) => ({ ...m, topics: [...m.topics] }));
  }

  /** The group as a scenario file (format 1), for `kap link` and the page. */
  scenarioText() {
    return JSON.stringify({
      version: 1,
      topics: Object.entries(this.topics).map(([name, partitions]) => ({ name, partitions })),
      consumers: this.members.map((m) => ({ id: m.id, topics: m.topics })),
    });
  }

  exists(chip) {
    const at = chip.lastIndexOf('-');
    const n = this.topics[chip.slice(0, at)];
    return n !== undefined && Number(chip.slice(at + 1)) < n;
  }

  /** The `kap batch` snapshot of this group under `strategy`, with what each member owns. */
  snapshot(strategy, owned) {
    return {
      strategy,
      topics: this.topics,
      members: this.members.map((m) => ({
        id: m.id,
        topics: m.topics,
        owned: (owned?.[m.id] ?? []).filter((chip) => this.exists(chip)),
      })),
    };
  }

  /**
   * What each strategy assigns, given what each member owned before (strategy → member → chips).
   * Cooperative-sticky's first assignment holds back partitions that change owner until their
   * owner lets go; the members rejoin owning what they kept and the follow-up assignment hands
   * those out: assign again from the last result until nothing changes.
   */
  expected(previous) {
    const [range, roundrobin, sticky, first] = batch(STRATEGIES.map((s) => this.snapshot(s, previous?.[s])));
    let cooperative = first;
    for (let round = 2; round <= 3; round++) {
      const [next] = batch([this.snapshot('cooperative-sticky', cooperative)]);
      const same = Object.keys(next).every((m) => [...next[m]].sort().join() === [...cooperative[m]].sort().join());
      if (same) break;
      cooperative = next;
    }
    return { range, roundrobin, sticky, 'cooperative-sticky': cooperative };
  }

  /** Each partition of a subscribed topic goes to exactly one of its subscribers; nothing else is assigned. */
  checkInvariants(state) {
    for (const [strategy, rows] of Object.entries(state)) {
      const owner = new Map();
      for (const [member, chips] of Object.entries(rows)) {
        const subscribed = this.members.find((m) => m.id === member)?.topics;
        assert.ok(subscribed, `${strategy}: ${member} is not in the group`);
        for (const chip of chips) {
          const topic = chip.slice(0, chip.lastIndexOf('-'));
          assert.ok(subscribed.includes(topic), `${strategy}: ${member} got ${chip} without subscribing`);
          assert.ok(!owner.has(chip), `${strategy}: ${chip} went to ${owner.get(chip)} and ${member}`);
          owner.set(chip, member);
        }
      }
      const wanted = Object.entries(this.topics)
        .filter(([t]) => this.members.some((m) => m.topics.includes(t)))
        .flatMap(([t, n]) => Array.from({ length: n }, (_, p) => `${t}-${p}`));
      assert.deepEqual([...owner.keys()].sort(), wanted.sort(), `${strategy}: not every partition assigned once`);
    }
  }
}

/**
 * A scenario file of `topics` topics (orders-0…, 1 to 4 partitions) and `consumers` consumers
 * (consumer-0…): `subscribed(i)` says how many of the first topics consumer i subscribes to.
 */
export function bigGroup(topics, consumers, subscribed = (i) => (i % 3 ? topics : Math.ceil(topics / 2))) {
  return JSON.stringify({
    version: 1,
    title: `${topics} topics, ${consumers} consumers`,
    topics: Array.from({ length: topics }, (_, i) => ({ name: `orders-${i}`, partitions: 1 + (i % 4) })),
    consumers: Array.from({ length: consumers }, (_, i) => ({
      id: `consumer-${i}`,
      topics: Array.from({ length: subscribed(i) }, (_, t) => `orders-${t}`),
    })),
  });
}

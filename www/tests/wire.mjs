// The page's requests to its compute workers as they cross (postcard bytes, `work::Message`; a
// scenario inside in the binary form of `scenario::packed`), read in the page for the browser tests
// that record what the page asks (frame, typed-ahead, blocks, download). Install it with
// `page.addInitScript(installWire)` before a recorder: it defines `window.__request(message)`,
// which gives `{ kind }` for a message that is not a request, and for a request its kind and, for
// `Compute` and `Settle`, `jobs: [{ version, scenario }]` (versions as decimal strings: a u64 does
// not survive a JavaScript number), for `Walk`, `request: { version, strategy, step }`.
export function installWire() {
  const KINDS = ['Compute', 'Settle', 'Member', 'Write', 'Part', 'Generation', 'Walk', 'Import', 'Open', 'Read', 'Plan'];
  window.__request = (message) => {
    if (!(message instanceof Uint8Array)) return { kind: null };
    const bytes = message;
    let at = 0;
    const varint = () => {
      let value = 0n;
      let shift = 0n;
      for (;;) {
        const byte = bytes[at++];
        value |= BigInt(byte & 0x7f) << shift;
        if (byte < 0x80) return value;
        shift += 7n;
      }
    };
    const number = () => Number(varint());
    const signed = () => {
      const v = varint();
      return Number((v >> 1n) ^ -(v & 1n));
    };
    const text = () => {
      const length = number();
      const s = new TextDecoder().decode(bytes.subarray(at, at + length));
      at += length;
      return s;
    };
    const option = (read) => (bytes[at++] === 1 ? read() : null);
    const list = (read) => Array.from({ length: number() }, read);
    const pair = (a, b) => () => [a(), b()];
    const topic = () => ({
      name: text(),
      partitions: number(),
      id: option(text),
      replicas: option(pair(number, () => list(() => option(text)))),
      rack_overrides: list(pair(number, () => list(() => option(text)))),
      weight: option(number),
      partition_weights: list(pair(number, number)),
    });
    const consumer = () => ({
      id: text(),
      instance_id: option(text),
      rack: option(text),
      topics: list(text),
      patterns: list(text),
      strategies: list(text),
    });
    const lists = () =>
      number() === 0 ? list(pair(text, () => list(pair(text, number)))) : list(pair(text, text));
    const previous = () => ({
      generation: signed(),
      generations: list(pair(text, () => option(signed))),
      layout: list(pair(text, number)),
      orders: list(pair(text, text)),
      assignments: list(pair(text, lists)),
      deleted_topic_ids: list(pair(text, text)),
    });
    const scenario = () => ({
      version: number(),
      title: text(),
      notes: text(),
      protocol: option(text),
      remote_assignor: option(text),
      topics: list(topic),
      consumers: list(consumer),
      subscriptions: list(() => ({ topics: list(text), consumers: text() })),
      previous: option(previous),
      view: { strategies: list(text), diff: bytes[at++] === 1, weight_unit: text() },
    });
    const job = () => {
      const version = varint().toString();
      if (number() === 1) varint(); // Prior::Settled(version)
      return { version, scenario: scenario() };
    };
    const kind = KINDS[number()];
    if (kind === 'Compute' || kind === 'Settle') return { kind, jobs: list(job) };
    if (kind === 'Walk') return { kind, request: { version: varint().toString(), strategy: text(), step: number() } };
    return { kind };
  };
}

// The CLI as the browser tests' ground truth: `kap batch` for group snapshots, `kap show --json`
// for scenario files (what Export JSON downloads), `kap preset`, `kap link`, `kap explain`.
// Not a test file itself (node --test picks up *.test.mjs only).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let binary = process.env.KAP;

/** The newest modification time under `path` (a file or a directory, recursively). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Whether target/debug/kap is newer than every source it is built from. */
function upToDate(file) {
  const built = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const crates = ['cli', 'scenario', 'assignor'];
  const sources = ['Cargo.lock', 'Cargo.toml', ...crates.flatMap((c) => [`crates/${c}/src`, `crates/${c}/Cargo.toml`]), 'crates/scenario/presets'];
  return built > Math.max(...sources.map((s) => newest(join(ROOT, s))));
}

/**
 * The `kap` binary: $KAP, or target/debug/kap, built with `cargo build -p cli` when any source is
 * newer, so the answers come from the same sources as the page under test.
 */
export function kapBinary() {
  if (binary) return binary;
  const built = join(ROOT, 'target', 'debug', 'kap');
  if (upToDate(built)) return (binary = built);
  try {
    execFileSync('cargo', ['build', '--quiet', '--offline', '-p', 'cli'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    throw new Error(`cargo build -p cli failed (set KAP=/path/to/kap to use a built one):\n${e.stderr ?? e}`);
  }
  if (!existsSync(built)) throw new Error(`${built} is missing after cargo build -p cli`);
  return (binary = built);
}

/** Runs `kap ARGS`, with `input` on stdin; its stdout. */
export function kap(args, input) {
  return execFileSync(kapBinary(), args, { input, encoding: 'utf8', maxBuffer: 256 << 20 });
}

/** `[["t0", 1], ...]` as the page's chips: `["t0-1", ...]`. */
export const chipsOf = (pairs) => pairs.map(([topic, partition]) => `${topic}-${partition}`);

/** `"t0-1"` back to `["t0", 1]` (topic names may contain '-'). */
export function pairOf(chip) {
  const at = chip.lastIndexOf('-');
  return [chip.slice(0, at), Number(chip.slice(at + 1))];
}

/** Member to chips, for every member of a `kap` assignment object. */
export const assignmentChips = (assignment) =>
  Object.fromEntries(Object.entries(assignment).map(([member, pairs]) => [member, chipsOf(pairs)]));

/**
 * Assigns group snapshots with `kap batch`: each `{ strategy, topics: {name: count}, members:
 * [{ id, topics, owned?: [chips], generation? }] }`; resolves to member → chips per snapshot.
 */
export function batch(snapshots) {
  const lines = snapshots.map((s, i) =>
    JSON.stringify({
      id: i,
      strategy: s.strategy,
      topics: s.topics,
      members: s.members.map((m) => ({
        id: m.id,
        instance_id: m.instanceId ?? null,
        rack: m.rack ?? null,
        topics: m.topics,
        owned: (m.owned ?? []).map(pairOf),
        generation: m.owned?.length ? (m.generation ?? 1) : null,
      })),
    }),
  );
  const out = kap(['batch'], lines.join('\n') + '\n').trim().split('\n').map((l) => JSON.parse(l));
  return out.map((r, i) => {
    if (r.error !== null || r.id !== i) throw new Error(`kap batch failed on ${lines[i]}: ${r.error}`);
    return assignmentChips(r.assignment);
  });
}

function withFile(text, run) {
  const dir = mkdtempSync(join(tmpdir(), 'kap-'));
  try {
    const file = join(dir, 'scenario.json');
    writeFileSync(file, text);
    return run(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `kap show --json` of a scenario file's text. */
export const show = (scenarioText) => withFile(scenarioText, (file) => JSON.parse(kap(['show', '--json', file])));

/** `kap show --json` of a preset, and the preset's scenario text. */
export function showPreset(id) {
  const text = kap(['preset', id]);
  return { text, shown: show(text) };
}

/** The presets `kap presets` lists: [{ id, title }]. */
export function presets() {
  return kap(['presets'])
    .trim()
    .split('\n')
    .map((line) => {
      const [, id, title] = line.match(/^(\S+)\s+(.*)$/);
      return { id, title };
    });
}

/** The share link (`kap link --base BASE`, or with `embed` the embed link and iframe snippet). */
export function link(scenarioText, base, { embed = false } = {}) {
  const out = withFile(scenarioText, (file) => kap(['link', '--base', base, ...(embed ? ['--embed'] : []), file]));
  const [url, snippet] = out.trim().split('\n');
  return embed ? { url, snippet } : url;
}

/**
 * `kap explain --strategy S --json` of a scenario: `{ steps, assignment }`. Each step carries only
 * what it changes (`{ member, add }`, `{ member, remove }` or `{ member, order }`); here each also
 * gets `soFar`, the assignment once it is taken, rebuilt from those changes as a reader of the output
 * does. The last line is the whole assignment.
 */
export function explain(scenarioText, strategy) {
  const lines = withFile(scenarioText, (file) => kap(['explain', '--strategy', strategy, '--json', file]))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const { assignment } = lines.pop();
  const lists = Object.fromEntries(Object.keys(assignment).map((member) => [member, []]));
  const same = (a, b) => a[0] === b[0] && a[1] === b[1];
  const steps = lines.map((step) => {
    for (const change of step.changes) {
      const list = lists[change.member];
      if (change.add) list.push(change.add);
      else if (change.remove) lists[change.member] = list.filter((p) => !same(p, change.remove));
      else lists[change.member] = change.order;
    }
    return { ...step, soFar: structuredClone(lists) };
  });
  return { steps, assignment };
}

/** What the page should show for `kap show --json` output: strategy → member → chips. */
export const shownChips = (shown) =>
  Object.fromEntries(Object.entries(shown.strategies).map(([s, r]) => [s, assignmentChips(r.assignment)]));

/** The numbers of a compact run text (format 2): `5`, `5-9`, `5-95/10`, each optionally `xN+D`. */
export function expandRuns(text) {
  const out = [];
  for (const item of text ? text.split(',') : []) {
    const [run, repeat] = item.split('x');
    const [copies, stride] = repeat ? repeat.split('+').map(Number) : [1, 0];
    const [range, step] = run.split('/');
    const [first, last = first] = range.split('-').map(Number);
    for (let copy = 0; copy < copies; copy++) {
      for (let n = first; n <= last; n += Number(step ?? 1)) out.push(n + copy * stride);
    }
  }
  return out;
}

/** A consumer's subscribed topics in a scenario file of either format (format 2 writes a topic list
 * shared by several consumers once, under `subscriptions`). */
export function consumerTopics(file, id) {
  const at = file.consumers.findIndex((c) => c.id === id);
  const shared = (file.subscriptions ?? []).find((s) => expandRuns(s.consumers).includes(at));
  return shared ? shared.topics : file.consumers[at].topics;
}

// What the page and its compute workers say to each other, recorded in the page for the browser
// tests of an edit's way to the screen (frame.test.mjs, typed-ahead.test.mjs), and the small group
// they open.
import { resultsShown } from './browser.mjs';
import { Group } from './group.mjs';
import { link } from './kap.mjs';
import { installWire } from './wire.mjs';

/** 3 topics × 12 partitions, 8 consumers: even ones read every topic, odd ones t0 only. */
export function startingGroup() {
  const members = Array.from({ length: 8 }, (_, i) => ({ id: `C${i}`, topics: i % 2 ? ['t0'] : ['t0', 't1', 't2'] }));
  return new Group({ t0: 12, t1: 12, t2: 12 }, members);
}

/**
 * Records, in the page, the versions of each Compute request's jobs and of each answer, read from
 * the requests' and the answers' bytes (`wire.mjs`). Of the first compute worker
 * only, the lead where the page runs two (each gets every version; workers.test.mjs), except
 * `__answeredBy`: each compute worker's answered versions, by worker, since a version's answer is
 * the page's only once every worker's share of it is in (`work::Gather`).
 */
export const recordMessages = async (page) => {
  await page.addInitScript(installWire);
  await page.addInitScript(() => {
    window.__computes = [];
    window.__answers = [];
    window.__answeredBy = [];
    window.__workerCount = 0;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      // Read before it is posted: its buffer is handed over (wire.mjs installs the reader).
      const request = this.__index === 0 ? window.__request(message) : { kind: null };
      if (request.kind === 'Compute') {
        const versions = request.jobs.map((job) => job.version);
        window.__computes.push(versions);
        if (versions[0].startsWith('1844674407370955')) {
          // A warm-up's job: t0's partition count in it.
          window.__warmUpPartitions = window.__warmUpPartitions ?? [];
          window.__warmUpPartitions.push(request.jobs[0].scenario.topics[0].partitions);
        }
      }
      return post.call(this, message, ...rest);
    };
    // u64::MAX as postcard writes it after the variant: nine bytes of 0xff, then 0x01.
    const isFirstWarmUp = (bytes) => bytes.length > 10 && bytes.slice(1, 10).every((b) => b === 0xff) && bytes[10] === 1;
    const listen = Worker.prototype.addEventListener;
    Worker.prototype.addEventListener = function (type, ...rest) {
      if (type === 'message' && !this.__recorded) {
        this.__recorded = true;
        this.__index = window.__workerCount++;
        const answered = (window.__answeredBy[this.__index] = []);
        // Replies cross as bytes (`Reply::encode`, postcard): an answer is variant 1, then its
        // version, both as varints (seven bits a byte, the lowest first).
        const answerVersion = (bytes) => {
          if (bytes[0] !== 1) return null;
          let version = 0n;
          for (let i = 1, shift = 0n; i < bytes.length; i++, shift += 7n) {
            version |= BigInt(bytes[i] & 0x7f) << shift;
            if (bytes[i] < 0x80) break;
          }
          return String(version);
        };
        listen.call(this, 'message', (e) => {
          if (this.__index !== 0) {
            const version = answerVersion(e.data);
            if (version) answered.push(version);
            return;
          }
          // The first warm-up round's answer may come while the page still reveals its sections
          // one per frame (app.rs); held back until the results region is no longer busy, so
          // that the render counts read as it comes are the whole page's (then sent on as it came).
          const results = () => document.querySelector('.results');
          if (e.data[0] === 1 && isFirstWarmUp(e.data) && !e.__sentOn && results()?.getAttribute('aria-busy') !== 'false') {
            e.stopImmediatePropagation();
            const sendOn = () => {
              if (results()?.getAttribute('aria-busy') !== 'false') return requestAnimationFrame(sendOn);
              const again = new MessageEvent('message', { data: e.data });
              again.__sentOn = true;
              this.dispatchEvent(again);
            };
            requestAnimationFrame(sendOn);
            return;
          }
          const answer = answerVersion(e.data);
          if (answer) {
            window.__answers.push(answer);
            answered.push(answer);
          }
          // This listener runs before the page's: the render counts (a debug build's) as the
          // warm-up's answer comes, before the page handles it.
          if (answer === '18446744073709551615') {
            window.__rendersAtWarmUp = Object.fromEntries(Object.entries(document.documentElement.dataset).filter(([k]) => k.startsWith('renders')));
          }
        });
      }
      return listen.call(this, type, ...rest);
    };
  });
};

/**
 * The starting group opened from its link in a new page of `env`'s browser, with `record` (an init
 * script: `recordMessages` or a test's own) in place before the page runs, once its first answer
 * is shown. Returns the group, the page, and the page's errors as they come.
 */
export async function openStartingGroup(env, record) {
  const group = startingGroup();
  const page = await env.browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await record(page);
  await page.goto(env.url + '#' + link(group.scenarioText(), env.url).split('#')[1]);
  await resultsShown(page);
  return { group, page, errors };
}

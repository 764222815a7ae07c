// A partition count typed as a person types it, for the perf scripts (`measure.mjs`'s typed row,
// `trace.mjs --typed`): not a test.

/** Whether the results region paints the answer of the scenario on screen. */
export const PAINTED = `(() => { const r = document.querySelector('.results');
  return r && r.getAttribute('aria-busy') === 'false' && r.dataset.shown === r.dataset.version && r.dataset.shown !== '0'; })()`;

/**
 * In the page, before the key is pressed: on the next Enter keydown (a capture listener on the
 * document, so before the page's own), the time from that event's `timeStamp` to the painted frame
 * that shows the answer of the version it makes. Nothing polls meanwhile: a MutationObserver on
 * the results region sees the answer's attributes written, asks for the next frame from there, and
 * that frame is painted when a task queued from its animation callbacks runs. Marks `edit:start`
 * (at the event's `timeStamp`) and `edit:painted` for a trace. `window.__typed` resolves to
 * { paint, toFrame (from the event to the start of the first frame after it), frames, worker,
 * decode, handle, late }: `late` when a worker's answer was read after the key, so the draft's
 * answer, computed ahead while the digits were typed, was not in when Enter came.
 *
 * `toFrame` and `frames` are counted only with `keyFrame` (`measure.mjs --key-frame`): counting
 * the frames takes an animation frame requested at the key, and that request is itself a change
 * to the page's frames. A key that changes nothing on screen needs no frame; once the compositor
 * has had a frame with nothing to draw it stops asking for frames, and the next change can be
 * drawn in a frame begun at once rather than at the next tick of the 60 Hz clock (Chromium's
 * begin-frame source sends a late joiner the frame it missed; traced). A person's key asks for no
 * frame; without `keyFrame`, neither does the script.
 */
const arm = (page, keyFrame) =>
  page.evaluate(
    ([painted, keyFrame]) => {
      const check = new Function(`return ${painted};`);
      window.__typed = new Promise((resolve) => {
        const onKey = (e) => {
          if (e.key !== 'Enter') return;
          document.removeEventListener('keydown', onKey, { capture: true });
          const t0 = e.timeStamp;
          performance.mark('edit:start', { startTime: t0 });
          const results = document.querySelector('.results');
          const before = results.dataset.version;
          let toFrame = NaN;
          let frames = 0;
          const count = (ts) => {
            if (Number.isNaN(toFrame)) toFrame = ts - t0;
            frames++;
          };
          if (keyFrame) requestAnimationFrame(count);
          const observer = new MutationObserver(() => {
            if (results.dataset.version === before || !check()) return;
            observer.disconnect();
            requestAnimationFrame((ts) => {
              if (keyFrame) count(ts);
              const channel = new MessageChannel();
              channel.port1.onmessage = () => {
                performance.mark('edit:painted');
                const lastOf = (name) => performance.getEntriesByName(name, 'measure').at(-1);
                const last = (name) => lastOf(name)?.duration ?? NaN;
                resolve({
                  paint: performance.now() - t0,
                  toFrame: keyFrame ? toFrame : NaN,
                  frames: keyFrame ? frames : NaN,
                  worker: Number(results.dataset.computeMs),
                  decode: last('answer:decode'),
                  handle: last('answer:handle'),
                  late: (lastOf('answer:decode')?.startTime ?? -Infinity) > t0,
                });
              };
              channel.port2.postMessage(0);
            });
          });
          observer.observe(results, { attributes: true });
        };
        document.addEventListener('keydown', onKey, { capture: true });
      });
    },
    [PAINTED, keyFrame],
  );

/** How long a typed edit's answer is waited for before the edit counts as missed. */
export const MISSED_MS = 10_000;

/**
 * The time between two keys, as a quick typist's: digits come 150–300 ms apart as people type
 * numbers, the quickest about 100 ms. 0 types them back to back (stops 24–26's row): faster than
 * any person, the draft of each digit is not answered (and laid out ahead) before the next.
 */
export const KEY_GAP_MS = 120;

/**
 * Types `n` into topic `topic`'s partition count with the keyboard (CDP key events, as a person's
 * keys reach the page): the field focused and its text selected, as after a click into it; each
 * digit a key, `keyGap` ms apart (an `input` the field holds until Enter, or a pause of
 * `fields::SETTLE_MS`); then Enter, which applies it, `keyGap` ms after the last digit plus a
 * random moment within a frame (0–17 ms, plus however long the key takes to arrive). Returns
 * `arm`'s timing, one frame after the paint, or null when no answer came within `MISSED_MS` of
 * Enter: on a machine loaded enough that the field's pause ran out between two keys, the count
 * was applied before Enter, which then makes no new version.
 */
export async function typeCount(page, topic, n, keyFrame = false, keyGap = KEY_GAP_MS) {
  await page.evaluate((label) => {
    const field = [...document.querySelectorAll('label.field')].find((l) => l.querySelector('.label').textContent === label);
    const input = field.querySelector('input');
    input.focus();
    input.select();
  }, `Partitions of ${topic}`);
  await page.keyboard.type(String(n), { delay: keyGap });
  await arm(page, keyFrame);
  await page.waitForTimeout(keyGap + Math.random() * 17);
  await page.keyboard.press('Enter');
  const missed = new Promise((resolve) => setTimeout(() => resolve(null), MISSED_MS));
  const timing = await Promise.race([page.evaluate(() => window.__typed), missed]);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  return timing;
}

/**
 * The typed row's floor: the same keys typed the same way, into a text field of its own (added to
 * the page once, so nothing is edited), the digits then Enter at a random moment within a frame,
 * and Enter answered at once by a keydown listener that sets one attribute (an answer that needs
 * no work at all); the time from the key's `timeStamp` to the painted frame that shows it, seen
 * and timed as `arm` sees and times an answer. A focused field keeps the compositor's frames
 * going (its caret): the answer waits for the next one as the typed row's does. Returns the ms.
 */
export async function typeFloor(page, n) {
  await page.evaluate(() => {
    let input = document.querySelector('input.typed-floor');
    if (!input) {
      input = document.createElement('input');
      input.className = 'typed-floor';
      input.setAttribute('aria-label', 'typed floor');
      document.body.append(input);
    }
    input.focus();
    input.select();
  });
  await page.keyboard.type(String(n));
  await page.evaluate(() => {
    window.__floor = new Promise((resolve) => {
      const onKey = (e) => {
        if (e.key !== 'Enter') return;
        document.removeEventListener('keydown', onKey, { capture: true });
        const t0 = e.timeStamp;
        const observer = new MutationObserver(() => {
          observer.disconnect();
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve(performance.now() - t0);
            channel.port2.postMessage(0);
          });
        });
        observer.observe(document.body, { attributes: true });
        document.body.dataset.typedFloor = String(e.timeStamp);
      };
      document.addEventListener('keydown', onKey, { capture: true });
    });
  });
  await page.waitForTimeout(Math.random() * 17);
  await page.keyboard.press('Enter');
  const paint = await page.evaluate(() => window.__floor);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  return paint;
}

// The consumers editor mounts its rows as the page scrolls toward them (`ui::reveal::use_reach`):
// tests that need rows far down the list scroll there as a person would.

/**
 * Scrolls the page toward the consumers editor's last mounted row until `count` rows are mounted
 * (or every row of its window is: then the editor has no `.rows-ahead` any more).
 */
export async function mountRows(page, count, timeout = 60_000) {
  await page.waitForFunction(
    (count) => {
      if (document.querySelectorAll('li.consumer').length >= count) return true;
      const ahead = document.querySelector('section.consumers-editor .rows-ahead');
      ahead?.scrollIntoView({ block: 'end' });
      return false;
    },
    count,
    { polling: 'raf', timeout },
  );
}

// What the chromium runs share: Debian's chromium started the same way, puppeteer-core's version,
// and a run that stops what it started on every way out and within its time.
import { readFileSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// Headless chromium; `protocolTimeout`: the longest one DevTools call may take, in milliseconds.
export function launchChromium(protocolTimeout) {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // root in a container: no sandbox; a small /dev/shm: use /tmp
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run'],
    protocolTimeout,
    timeout: 60_000,
  });
}

// `fn(page, context)` on a fresh page, 800 x 900, of a fresh incognito context of `browser` (closed
// after, whatever `fn` does); every wait of the page bounded by `timeoutMs` milliseconds.
export async function withPage(browser, timeoutMs, fn) {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(timeoutMs);
    page.setDefaultNavigationTimeout(timeoutMs);
    await page.setViewport({ width: 800, height: 900 });
    return await fn(page, context);
  } finally {
    await context.close();
  }
}

export function puppeteerVersion() {
  const file = new URL('node_modules/puppeteer-core/package.json', import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')).version;
}

// `stop` (which kills the run's child processes) runs on every way out: the end, SIGINT, SIGTERM.
// After `ms` milliseconds the run ends (exit 1) saying `name` was not done, its chromium
// (`browser()`, when started) killed first.
export function boundRun(name, ms, stop, browser) {
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stop();
      process.exit(1);
    });
  }
  const overall = setTimeout(() => {
    console.error(`${name}: not done within ${ms / 1000} s`);
    browser()?.process()?.kill('SIGKILL');
    process.exit(1); // the 'exit' handler stops the rest
  }, ms);
  overall.unref();
}

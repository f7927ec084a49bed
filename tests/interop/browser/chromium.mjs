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

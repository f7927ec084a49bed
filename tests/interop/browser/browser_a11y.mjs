// The pages of `elicitgen ask --browser` audited in a real browser: Debian's chromium, headless,
// driven by puppeteer-core, with axe-core (WCAG 2.1 A and AA rules) injected through
// @axe-core/puppeteer. One form with every kind of field the page renders (every_field.json, and
// every_field_ko.json with Korean titles for the Korean run). See run.sh for what is covered.
// Usage: node browser_a11y.mjs <elicitgen> <schema dir> [<screenshot dir>]
// Every wait is bounded: each page wait, each child's URL and exit, and the whole run (OVERALL_MS).
// A check that fails is recorded and the run goes on, so one run lists every problem (every axe
// violation of every page, in both languages and colour schemes); it exits 1 at the end if any.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { AxePuppeteer } from '@axe-core/puppeteer';

import { boundRun, launchChromium, puppeteerVersion, withPage as withFreshPage } from './chromium.mjs';

const [elicitgen, schemaDir, screenshotDir] = process.argv.slice(2);
if (!elicitgen || !schemaDir) {
  console.error('usage: node browser_a11y.mjs <elicitgen> <schema dir> [<screenshot dir>]');
  process.exit(2);
}
const OVERALL_MS = 240_000; // CTest's TIMEOUT (300 s) is above it
const PAGE_MS = 30_000; // a navigation, a selector, an axe run
const CHILD_MS = 60_000; // elicitgen's URL on stderr, its exit after the answer (a sanitized build starts slower)
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SCHEMES = ['light', 'dark'];
// axe-core's own latest release (package.json pins it), not the one @axe-core/puppeteer bundles.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_VERSION = JSON.parse(readFileSync(new URL('node_modules/axe-core/package.json', import.meta.url), 'utf8')).version;

// --- findings ------------------------------------------------------------------------------------
const problems = [];
let axeRuns = 0;
let axeViolations = 0;
function expect(ok, what) {
  if (!ok) {
    problems.push(what);
    console.log(`  FAIL ${what}`);
  }
  return ok;
}

// --- children, killed on every way out -----------------------------------------------------------
const children = new Set();
let browser;
function stopAll() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
boundRun('browser_a11y', OVERALL_MS, stopAll, () => browser);

// One `elicitgen ask --browser --no-open` serving one form on 127.0.0.1: resolves with the page's
// URL (the one on its stderr) and `answered`, which resolves with its exit code and stdout (the
// answer as JSON) once it exits, which it does after an answer.
function ask(schema) {
  const child = spawn(elicitgen, ['ask', '--browser', '--no-open', path.join(schemaDir, schema)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const answered = async () => {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`elicitgen ask did not exit within ${CHILD_MS / 1000} s of the answer: ${stderr}`)), CHILD_MS);
    });
    try {
      const { code, signal } = await Promise.race([exited, timeout]);
      let answer; // what it printed, as JSON when it is
      try {
        answer = JSON.parse(stdout);
      } catch {
        answer = stdout;
      }
      return { code: code ?? signal, stdout, stderr, answer };
    } finally {
      clearTimeout(timer);
    }
  };
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`elicitgen ask printed no URL within ${CHILD_MS / 1000} s: ${stderr}`)), CHILD_MS);
    child.stderr.on('data', (d) => {
      stderr += d;
      // The URL only (the sentence around it is in the terminal's language), from whole lines.
      const m = /http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_/-]+/.exec(stderr.slice(0, stderr.lastIndexOf('\n') + 1));
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`elicitgen ask exited (${code ?? signal}) before serving the form: ${stderr}`));
    });
  });
  return url.then((u) => ({ url: u, answered }));
}

// --- the browser ---------------------------------------------------------------------------------
// A fresh page asking for `lang`, in light.
function withPage(lang, fn) {
  return withFreshPage(browser, PAGE_MS, async (page) => {
    await page.setExtraHTTPHeaders({ 'Accept-Language': lang });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    return fn(page);
  });
}

async function open(page, url, expectStatus) {
  const res = await page.goto(url, { waitUntil: 'load', timeout: PAGE_MS });
  if (res.status() !== expectStatus) throw new Error(`GET ${url}: ${res.status()}, expected ${expectStatus}`);
  return res;
}

// Clicks a submit button and waits for the answer page; its response.
async function press(page, action) {
  const [res] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'load', timeout: PAGE_MS }),
    page.click(`button[name="action"][value="${action}"]`),
  ]);
  return res;
}

// The page says which language it is in, to the browser (the <html lang> screen readers choose
// their voice by) and in the reply (Content-Language).
async function checkLanguage(page, res, lang, what) {
  const htmlLang = await page.evaluate(() => document.documentElement.lang);
  expect(htmlLang === lang, `${what}: <html lang="${htmlLang}">, expected "${lang}"`);
  const header = res.headers()['content-language'];
  expect(header === lang, `${what}: Content-Language ${header ?? '(none)'}, expected ${lang}`);
}

async function audit(page, what) {
  // Legacy mode: axe.run in the page itself (the page has no frames: its CSP forbids them); the
  // default runs each frame apart and opens a blank page to combine them.
  const results = await new AxePuppeteer(page, AXE_SOURCE).withTags(WCAG_TAGS).setLegacyMode(true).analyze();
  axeRuns += 1;
  axeViolations += results.violations.length;
  const review = results.incomplete.map((r) => r.id);
  console.log(
    `  axe ${what}: ${results.violations.length} violations, ${results.passes.length} rules passed` +
      (review.length ? `, to review by hand: ${review.join(' ')}` : ''),
  );
  for (const v of results.violations) {
    expect(false, `${what}: axe ${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    for (const n of v.nodes) console.log(`       ${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`);
  }
}

// The page in both colour schemes: an audit each (contrast differs), and a check that the scheme
// did change the page (else the dark audit would repeat the light one).
async function auditBothSchemes(page, lang, what) {
  const backgrounds = [];
  for (const scheme of SCHEMES) {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    backgrounds.push(await page.$eval('body', (b) => getComputedStyle(b).backgroundColor));
    await audit(page, `${lang} ${scheme} ${what}`);
  }
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  expect(backgrounds[0] !== backgrounds[1], `${lang} ${what}: the same background in light and dark (${backgrounds[0]})`);
}

async function screenshot(page, name) {
  if (!screenshotDir) return;
  const file = path.join(screenshotDir, name);
  await page.screenshot({ path: file, type: 'png', fullPage: true });
  console.log(`  screenshot ${file}`);
}

// --- the flows -----------------------------------------------------------------------------------
const SCHEMA = { en: 'every_field.json', ko: 'every_field_ko.json' };
// The fields the invalid submission gets wrong (the rest are optional and left empty).
const INVALID = ['name', 'nickname', 'apiKey', 'email', 'website', 'seats', 'budget', 'terms', 'plan', 'country', 'topics'];

// The form as shown, then with errors (422), a 404, and the page after Decline; each audited in both
// colour schemes.
async function auditPages(lang) {
  const before = problems.length;
  const { url, answered } = await ask(SCHEMA[lang]);
  await withPage(lang, async (page) => {
    let res = await open(page, url, 200);
    await checkLanguage(page, res, lang, `${lang} form`);
    await auditBothSchemes(page, lang, 'form');
    if (lang === 'en') await screenshot(page, 'browser-form-en-every-field.png');
    if (lang === 'ko') await screenshot(page, 'browser-form-ko.png');

    // Wrong values with the browser's own checks off (as an old browser or a hand-made request
    // sends them): the server's 422 lists them. Set from the page's script context, which its CSP
    // does not govern.
    await page.evaluate(() => {
      const set = (name, value) => {
        document.querySelector(`input[name="${name}"]:not([type=hidden])`).value = value;
      };
      set('name', ''); // required
      set('nickname', 'x'.repeat(21)); // maxLength 20
      set('apiKey', 'short'); // minLength 12
      set('email', 'not-an-email');
      set('website', 'not a url');
      set('seats', '99'); // maximum 10
      set('budget', '-1'); // minimum 0
      for (const box of document.querySelectorAll('input[name="topics"]')) box.checked = true; // 5 > maxItems 3
      document.querySelector('form').noValidate = true;
      // terms, plan and country (required) left unanswered
    });
    res = await press(page, 'accept');
    if (res.status() !== 422) throw new Error(`${lang}: the invalid submission got ${res.status()}, expected 422`);
    await checkLanguage(page, res, lang, `${lang} form with errors`);
    const shown = await page.evaluate(() => {
      const active = document.activeElement;
      const fields = [...document.querySelectorAll('.field.invalid')].map((div) => {
        const error = div.querySelector('.error');
        const controls = [...div.querySelectorAll('input:not([type=hidden]), select')].map((c) => {
          const ids = (e) => (e?.getAttribute('aria-describedby') ?? '').split(/\s+/);
          // A radio or checkbox of a group is described by its fieldset (read as the group is
          // entered), the GOV.UK pattern the template follows.
          const group = c.type === 'radio' || c.type === 'checkbox' ? c.closest('fieldset') : null;
          return {
            name: c.name,
            invalid: c.getAttribute('aria-invalid'),
            described: error !== null && (ids(c).includes(error.id) || ids(group).includes(error.id)),
          };
        });
        return { name: controls[0]?.name, errorText: error?.textContent.trim() ?? '', controls };
      });
      return {
        focused: active === document.querySelector('.summary'),
        active: active === document.body ? 'body' : `${active.tagName.toLowerCase()}#${active.id}.${active.className}`,
        fields,
      };
    });
    expect(shown.focused, `${lang} form with errors: the focused element is ${shown.active}, not the error summary`);
    expect(
      isDeepStrictEqual(shown.fields.map((f) => f.name), INVALID),
      `${lang} form with errors: invalid fields ${shown.fields.map((f) => f.name).join(' ')}, expected ${INVALID.join(' ')}`,
    );
    for (const f of shown.fields) {
      expect(f.errorText !== '', `${lang} form with errors: ${f.name} has no error text`);
      for (const c of f.controls) {
        expect(c.invalid === 'true', `${lang} form with errors: a control of ${f.name} has aria-invalid=${c.invalid}`);
        expect(c.described, `${lang} form with errors: a control of ${f.name} is not described by its error`);
      }
    }
    await auditBothSchemes(page, lang, 'form with errors');
    if (lang === 'ko') await screenshot(page, 'browser-form-ko-errors.png');

    // A well-formed id no page has: 404.
    const unknown = url.replace(/[^/]+$/, 'A11yAuditNoSuchPage_00');
    res = await open(page, unknown, 404);
    await checkLanguage(page, res, lang, `${lang} 404 page`);
    await auditBothSchemes(page, lang, '404 page');

    // Back to the form (still open after a 422), then Decline (formnovalidate): the status page.
    await open(page, url, 200);
    res = await press(page, 'decline');
    if (res.status() !== 200) throw new Error(`${lang}: Decline got ${res.status()}, expected 200`);
    await checkLanguage(page, res, lang, `${lang} declined page`);
    await auditBothSchemes(page, lang, 'declined page');
  });
  const { code, stdout, answer } = await answered();
  expect(code === 1 && answer?.action === 'decline', `${lang}: elicitgen ask exited ${code} printing ${stdout}, expected 1 and a decline`);
  console.log(`${problems.length === before ? 'ok' : 'not ok'} ${lang}: the form, its errors (422), a 404 and the declined page audited in light and dark`);
}

// The keyboard alone: what each control gets once Tab has reached it. Text is typed; a date input's
// segments take their digits in the order of the browser's locale (headless chromium's is en-US
// whatever LANG, LANGUAGE or --lang say: mm dd yyyy; checked below), a year takes up to 6 digits so
// Tab moves on from it; Space ticks a checkbox or chooses a radio, ArrowDown moves to (and chooses)
// the next radio or option.
const KEYS = {
  en: { name: 'Ada Lovelace', nickname: 'Ada' },
  ko: { name: '김하나', nickname: '하나' },
};
function steps(lang) {
  const type = (text) => async (page) => page.keyboard.type(text);
  const press = (...keys) => async (page) => {
    for (const key of keys) await page.keyboard.press(key);
  };
  return {
    name: type(KEYS[lang].name),
    nickname: type(KEYS[lang].nickname),
    apiKey: type('sk-test-0123456789'),
    email: type('ada@example.com'),
    website: type('https://example.com/ada'),
    birthday: type('12101815'),
    meeting: async (page) => {
      await page.keyboard.type('03042026');
      await page.keyboard.press('Tab');
      await page.keyboard.type('093005A');
    },
    seats: type('4'),
    budget: type('12.5'),
    terms: press('Space'), // the first radio: Yes
    newsletter: press('Space'),
    plan: press('ArrowDown'), // from Free to Team
    country: press('ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown'), // past "(choose one)": South Korea
    'topics:releases': press('Space'),
    'topics:security': press('Space'),
  };
}
const EXPECTED = (lang) => ({
  name: KEYS[lang].name,
  nickname: KEYS[lang].nickname,
  apiKey: 'sk-test-0123456789',
  email: 'ada@example.com',
  website: 'https://example.com/ada',
  birthday: '1815-12-10',
  meeting: '2026-03-04T09:30:05Z', // the page reads UTC
  seats: 4,
  budget: 12.5,
  terms: true,
  newsletter: true,
  plan: 'team',
  country: 'kr',
  topics: ['releases', 'security'],
});
const MAX_TABS = 80; // the form has 21 stops, the date inputs' segments and pickers 9 more

// The focused control, as the Tab order is compared: a radio group is one stop; a checkbox of a
// group is its name and value; a button its value.
const focusedControl = (page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    if (!e || e === document.body) return 'body';
    if (e.type === 'radio') return e.name;
    if (e.type === 'checkbox' && e.closest('fieldset')) return `${e.name}:${e.value}`;
    if (e.tagName === 'BUTTON') return `button:${e.value}`;
    return e.name || `${e.tagName.toLowerCase()}#${e.id}`;
  });

// The focus indicator of the focused control (WCAG 2.1 1.4.11, non-text contrast, which axe does
// not check): an outline of 2 px or more, 3:1 at least against the page's background (the outline
// is drawn outside the control, 2 px off it).
function luminance(css) {
  const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
async function focusRing(page) {
  const s = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement);
    return {
      style: style.outlineStyle,
      width: parseFloat(style.outlineWidth),
      color: style.outlineColor,
      background: getComputedStyle(document.body).backgroundColor,
    };
  });
  const [hi, lo] = [luminance(s.color), luminance(s.background)].sort((a, b) => b - a);
  const ratio = (hi + 0.05) / (lo + 0.05);
  return {
    ok: s.style !== 'none' && s.width >= 2 && ratio >= 3,
    text: `${s.style} ${s.width}px ${s.color} on ${s.background}: ${ratio.toFixed(2)}:1`,
  };
}

async function keyboardOnly(lang, scheme) {
  const before = problems.length;
  const { url, answered } = await ask(SCHEMA[lang]);
  await withPage(lang, async (page) => {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    await open(page, url, 200);
    const locale = await page.evaluate(() => navigator.language);
    if (locale !== 'en-US') throw new Error(`the browser's locale is ${locale}: the date keys below are for en-US`);
    // Every control of the form in document order, as focusedControl names them (read only).
    const controls = await page.$$eval('form input:not([type=hidden]), form select, form button', (all) => {
      const out = [];
      for (const e of all) {
        let key = e.name;
        if (e.type === 'checkbox' && e.closest('fieldset')) key = `${e.name}:${e.value}`;
        if (e.tagName === 'BUTTON') key = `button:${e.value}`;
        if (out[out.length - 1] !== key) out.push(key); // a radio group's buttons: one stop
      }
      return out;
    });
    const act = steps(lang);
    const reached = [];
    const faintRings = [];
    for (let i = 0; i < MAX_TABS && reached[reached.length - 1] !== 'button:cancel'; ++i) {
      await page.keyboard.press('Tab');
      const now = await focusedControl(page);
      if (now === reached[reached.length - 1]) continue; // the next segment of a date input
      reached.push(now);
      const ring = await focusRing(page);
      if (!ring.ok) faintRings.push([now, ring.text]);
      if (act[now]) await act[now](page);
    }
    const byRing = new Map();
    for (const [control, text] of faintRings) byRing.set(text, [...(byRing.get(text) ?? []), control]);
    expect(
      faintRings.length === 0,
      `${lang} ${scheme} keyboard: focus indicators missing or under 3:1: ` +
        [...byRing].map(([text, controls]) => `${controls.join(' ')}: ${text}`).join('; '),
    );
    expect(
      isDeepStrictEqual(reached, controls),
      `${lang} keyboard: Tab reached ${reached.join(' ')}; the form's controls are ${controls.join(' ')}`,
    );
    // Back from Cancel to Accept, and Enter.
    for (let i = 0; i < 2; ++i) {
      await page.keyboard.down('Shift');
      await page.keyboard.press('Tab');
      await page.keyboard.up('Shift');
    }
    const focused = await focusedControl(page);
    if (focused !== 'button:accept') throw new Error(`${lang} keyboard: Shift+Tab twice from Cancel reached ${focused}`);
    const invalid = await page.$$eval('form :invalid', (all) => all.map((e) => e.name));
    if (invalid.length) throw new Error(`${lang} keyboard: the browser would not submit: ${invalid.join(' ')} invalid`);
    const [res] = await Promise.all([page.waitForNavigation({ waitUntil: 'load', timeout: PAGE_MS }), page.keyboard.press('Enter')]);
    if (res.status() !== 200) throw new Error(`${lang} keyboard: the submission got ${res.status()}, expected 200`);
    await checkLanguage(page, res, lang, `${lang} thanks page`);
    await auditBothSchemes(page, lang, 'thanks page');
  });
  const { code, stdout, answer } = await answered();
  expect(code === 0, `${lang} keyboard: elicitgen ask exited ${code}, expected 0`);
  expect(
    isDeepStrictEqual(answer, EXPECTED(lang)),
    `${lang} keyboard: elicitgen ask printed ${JSON.stringify(answer)}, expected ${JSON.stringify(EXPECTED(lang))}`,
  );
  console.log(
    `${problems.length === before ? 'ok' : 'not ok'} ${lang} ${scheme} keyboard: every control reached by Tab in order, ` +
      'a focus ring of 3:1 on each, the form filled in and submitted with keys alone; the answer as typed',
  );
}

// --- main ----------------------------------------------------------------------------------------
let status = 0;
const started = Date.now();
try {
  if (screenshotDir) mkdirSync(screenshotDir, { recursive: true });
  browser = await launchChromium(PAGE_MS);
  console.log(`${await browser.version()}; puppeteer-core ${puppeteerVersion()}; axe-core ${AXE_VERSION}; tags ${WCAG_TAGS.join(' ')}`);
  for (const lang of ['en', 'ko']) {
    await auditPages(lang);
    // The focus rings checked on the way: English in light, Korean in dark.
    await keyboardOnly(lang, lang === 'en' ? 'light' : 'dark');
  }
} catch (e) {
  console.error(e);
  status = 1;
} finally {
  await browser?.close().catch(() => browser?.process()?.kill('SIGKILL'));
}
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`browser_a11y: ${axeRuns} axe runs, ${axeViolations} violations; ${problems.length} problems in ${seconds} s`);
if (problems.length) {
  console.error(`browser_a11y: ${problems.length} problems:`);
  for (const p of problems) console.error(`  ${p}`);
  status = 1;
}
process.exit(status);

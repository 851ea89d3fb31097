// What the browser checks share: Chromium as this machine has it, and logging in.
import { chromium } from 'playwright-core';

export const launch = () => chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

// logIn logs a phone in through the app's login page (the dev-mode code is shown there).
export async function logIn(page, base, phone) {
  await page.goto(base + '/app/#/login');
  await page.fill('#phone', phone);
  await page.click('#send-code');
  await page.waitForSelector('#dev-code');
  await page.click('#login');
  await page.waitForSelector('.shop-link');
}

// The sizes the screens are shown at: a phone's, and a laptop's.
export const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

// shoot writes the page as it is now to <dir>/<name>-phone.png and <dir>/<name>-desktop.png
// (nothing without dir), each at its size once the page's images have loaded, and gives
// the page its own size back. options go to page.screenshot (fullPage, …).
export async function shoot(page, dir, name, options = {}) {
  if (!dir) return;
  const own = page.viewportSize();
  for (const [size, viewport] of Object.entries(sizes)) {
    await page.setViewportSize(viewport);
    await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 15000 });
    await page.screenshot({ path: `${dir}/${name}-${size}.png`, ...options });
  }
  await page.setViewportSize(own);
}

// watchBell records every unread count the bell shows from now on (window.unreadShown,
// starting with the current one) and sets a mark a reload would lose
// (window.notReloaded).
export async function watchBell(page) {
  await page.evaluate(() => {
    window.unreadShown = [document.querySelector('#bell').dataset.unread];
    window.notReloaded = true;
    new MutationObserver(() => {
      const n = document.querySelector('#bell')?.dataset.unread;
      if (n && window.unreadShown.at(-1) !== n) window.unreadShown.push(n);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-unread'] });
  });
}

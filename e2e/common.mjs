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

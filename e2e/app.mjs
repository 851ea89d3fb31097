// Walks the web app as a buyer would: open it, log in with the dev-mode code, open the
// shop of a live flash sale, claim it, watch the order turn from queued to awaiting
// payment without reloading (the orderStatus subscription), pay, and see the code.
// Screenshots of the screens go to the given folder, at phone and desktop sizes.
// usage: node app.mjs <base URL> <shop id> <sale title> <phone> <screenshot dir>
// Prints what it saw as JSON.
import { launch, logIn, shoot, sizes } from './common.mjs';

const [base, shopID, saleTitle, phone, shots] = process.argv.slice(2);
const browser = await launch();
const seen = { statuses: [] };
// photosShown waits for the page's shop photos to load and counts those that show a
// picture (a missing one has no width).
const photosShown = async (page) => {
  await page.waitForFunction(() => [...document.querySelectorAll('img.shop-photo')].every((i) => i.complete), null, { timeout: 15000 });
  return page.$$eval('img.shop-photo', (els) => els.filter((i) => i.naturalWidth > 0).length);
};
try {
  for (const [size, viewport] of [['desktop', sizes.desktop], ['phone', sizes.phone]]) {
    const page = await browser.newPage({ viewport, locale: 'zh-CN' });
    await page.goto(base + '/app/');
    await page.waitForSelector('.shop-link');
    // First contentful paint of each load; the best of the two is reported, as a busy
    // machine can hold up either.
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1);
    seen.fcps = [...(seen.fcps || []), fcp];
    seen.fcp = Math.min(...seen.fcps.filter((v) => v > 0));
    seen.listPhotos = await photosShown(page);
    if (shots) await page.screenshot({ path: `${shots}/shops-${size}.png` });
    await page.close();
  }

  // Near me, with the browser's position at West Lake: the list turns into distances,
  // nearest first.
  const ctx = await browser.newContext({ geolocation: { latitude: 30.2590, longitude: 120.1480 }, permissions: ['geolocation'], locale: 'zh-CN',
    viewport: sizes.phone });
  const near = await ctx.newPage();
  await near.goto(base + '/app/');
  await near.waitForSelector('.shop-link');
  await near.click('#near-me');
  await near.waitForSelector('.distance');
  seen.distances = await near.$$eval('.distance', (els) => els.map((e) => e.textContent));
  await photosShown(near);
  await shoot(near, shots, 'nearby');
  await ctx.close();

  const page = await browser.newPage({ viewport: sizes.phone, locale: 'zh-CN' });
  await logIn(page, base, phone);

  await page.goto(base + '/app/#/shop/' + shopID);
  const sale = page.locator('li.voucher', { hasText: saleTitle });
  await sale.waitFor();
  seen.shopPhotos = await photosShown(page);
  // The photos' sizes as the page set them, which reserve their room before they load.
  seen.shopPhotoSizes = await page.$$eval('.photos img.shop-photo', (els) => els.map((i) => `${i.getAttribute('width')}x${i.getAttribute('height')}`));
  await shoot(page, shots, 'shop');
  // Every status the order shows, in order, as the page changes (no reload).
  await page.evaluate(() => {
    window.statusesShown = [];
    new MutationObserver(() => {
      const s = document.querySelector('.order-status')?.dataset.status;
      if (s && window.statusesShown.at(-1) !== s) window.statusesShown.push(s);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
  await sale.locator('.claim').click();
  const status = sale.locator('.order-status');
  await status.waitFor();
  seen.statuses.push(await status.getAttribute('data-status'));
  await sale.locator('.order-status[data-status="CREATED"]').waitFor({ timeout: 20000 });
  seen.statuses.push('CREATED');
  await shoot(page, shots, 'claimed');
  await sale.locator('.pay').click();
  await sale.locator('.redemption-code').waitFor({ timeout: 30000 });
  seen.statuses.push(await status.getAttribute('data-status'));
  seen.code = await sale.locator('.redemption-code').textContent();
  await shoot(page, shots, 'paid');
  seen.reloads = await page.evaluate(() => performance.getEntriesByType('navigation').length);
  seen.shown = await page.evaluate(() => window.statusesShown);
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}

// Favourites: a user marks a shop and one of its vouchers with the heart on the shop's
// page, finds both in My favourites (and the shop's heart on the shop list), takes the
// shop's mark back there, and after a reload only the voucher is left. Prints what the
// pages showed as JSON.
// usage: node favorites.mjs <base URL> <phone> <shop id> [screenshot dir]
import { launch, logIn, shoot, sizes } from './common.mjs';

const [base, phone, shopID, shots] = process.argv.slice(2);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: sizes.phone, locale: 'zh-CN' });
  await logIn(page, base, phone);
  await page.goto(base + `/app/#/shop/${shopID}`);
  const heart = page.locator('.title-row .heart');
  await heart.waitFor();
  const seen = { shopBefore: await heart.getAttribute('aria-pressed'), countBefore: (await heart.textContent()).trim() };
  await heart.click();
  await page.waitForSelector('.title-row .heart[aria-pressed="true"]');
  seen.countAfter = (await heart.textContent()).trim();
  const voucher = page.locator('li.voucher').first();
  seen.voucherTitle = (await voucher.locator('b').first().textContent()).trim();
  await voucher.locator('.heart').click();
  await voucher.locator('.heart[aria-pressed="true"]').waitFor();
  await shoot(page, shots, 'shop-favorited');

  // The shop list shows the mark too.
  await page.goto(base + '/app/#/');
  await page.waitForSelector(`li.shop-card[data-shop="${shopID}"] .heart`);
  seen.listHeart = await page.getAttribute(`li.shop-card[data-shop="${shopID}"] .heart`, 'aria-pressed');

  await page.goto(base + '/app/#/favorites');
  await page.waitForSelector('ul.favorites li');
  const listed = async () => page.$$eval('ul.favorites li', (els) => els.map((e) => (e.dataset.shop ? 'shop:' + e.dataset.shop : 'voucher:' + e.dataset.voucher)));
  seen.listed = await listed();
  seen.voucherShown = (await page.locator('li.voucher-card b').first().textContent()).trim();
  await shoot(page, shots, 'favorites');
  await page.click(`li.shop-card[data-shop="${shopID}"] .heart`);
  await page.waitForSelector(`li.shop-card[data-shop="${shopID}"] .heart[aria-pressed="false"]`);
  await page.reload();
  await page.waitForSelector('ul.favorites li');
  seen.listedAfter = await listed();
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}

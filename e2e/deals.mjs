// Deals near me: from a point among the demo shops, within 20 km, the page lists the
// deals in each of the four orders, loading more pages until there are none. Prints,
// per order, the deals as shown (voucher id, distance, discount, score, seconds left).
// usage: node deals.mjs <base URL> <latitude> <longitude> [screenshot dir]
import { launch, shoot, sizes } from './common.mjs';

const [base, lat, lon, shots] = process.argv.slice(2);
const browser = await launch();
try {
  const ctx = await browser.newContext({ geolocation: { latitude: Number(lat), longitude: Number(lon) }, permissions: ['geolocation'],
    locale: 'zh-CN', viewport: sizes.phone });
  const page = await ctx.newPage();
  await page.goto(base + '/app/#/deals');
  await page.waitForSelector('ul.deals[data-shown="DISTANCE:5000"]');
  await page.selectOption('#deal-radius', '20000');
  const seen = { pages: {}, deals: {} };
  for (const sort of ['DISTANCE', 'DISCOUNT', 'SCORE', 'ENDING_SOON']) {
    await page.click('#sort-' + sort);
    await page.waitForSelector(`ul.deals[data-shown="${sort}:20000"]`);
    let pages = 1;
    while (await page.locator('#more-deals').count()) {
      const n = await page.locator('li.deal').count();
      await page.click('#more-deals');
      await page.waitForFunction((k) => document.querySelectorAll('li.deal').length > k, n);
      pages++;
    }
    seen.pages[sort] = pages;
    seen.deals[sort] = await page.$$eval('li.deal', (els) => els.map((e) => ({
      voucher: e.dataset.voucher, distance: Number(e.dataset.distance), discount: Number(e.dataset.discount), score: Number(e.dataset.score),
      secondsLeft: e.dataset.secondsLeft === '' ? null : Number(e.dataset.secondsLeft),
      timeLeft: e.querySelector('.time-left')?.textContent ?? '', remaining: e.querySelector('.remaining')?.textContent ?? '' })));
    if (sort === 'ENDING_SOON') {
      await page.evaluate(() => window.scrollTo(0, 0));
      await shoot(page, shots, 'deals');
    }
  }
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}

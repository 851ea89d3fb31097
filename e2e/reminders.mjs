// Sale reminders: on a shop's page a user asks to be reminded of an upcoming sale that
// begins within SALE_REMINDER_BEFORE; the bell rises without a reload and the inbox shows
// the reminder naming the sale, linking to its shop. A reminder of a later sale is set and
// taken back; after a reload the page shows both as they stand, and so do the deals near
// me. The shop's merchant (a session given as JSON) sees the reminder counts on the
// board's list of their sales and on the shop's page. Prints what the pages showed as JSON.
// usage: node reminders.mjs <base URL> <shop id> <latitude> <longitude> <soon id> <soon title> <later id> <phone> <merchant session JSON> [screenshot dir]
import { launch, logIn, shoot, sizes, watchBell } from './common.mjs';

const [base, shopID, lat, lon, soonID, soonTitle, laterID, phone, merchant, shots] = process.argv.slice(2);
const browser = await launch();
const voucher = (page, id) => page.locator('li.voucher', { has: page.locator(`.heart[data-id="${id}"]`) });
try {
  const ctx = await browser.newContext({ viewport: sizes.phone, locale: 'zh-CN',
    geolocation: { latitude: Number(lat), longitude: Number(lon) }, permissions: ['geolocation'] });
  const page = await ctx.newPage();
  await logIn(page, base, phone);
  await page.goto(base + `/app/#/shop/${shopID}`);
  await voucher(page, soonID).locator('.remind').waitFor();
  await page.waitForSelector('#bell');
  const seen = { before: await page.getAttribute('#bell', 'data-unread') };
  await watchBell(page);
  const soon = voucher(page, soonID).locator('.remind');
  const later = voucher(page, laterID).locator('.remind');
  seen.soonLabelBefore = (await soon.textContent()).trim();
  await soon.click();
  await voucher(page, soonID).locator('.remind[aria-pressed="true"]').waitFor();
  seen.soonLabelAfter = (await soon.textContent()).trim();

  // The later sale: set, then taken back.
  await later.click();
  await voucher(page, laterID).locator('.remind[aria-pressed="true"]').waitFor();
  seen.laterSet = (await later.textContent()).trim();
  await page.waitForSelector('#bell[data-unread="1"]', { timeout: 20000 });
  seen.badge = await page.textContent('#unread-badge');
  seen.shown = await page.evaluate(() => window.unreadShown);
  seen.notReloaded = await page.evaluate(() => window.notReloaded === true);
  await shoot(page, shots, 'reminder-set', { fullPage: true });
  await later.click();
  await voucher(page, laterID).locator('.remind[aria-pressed="false"]').waitFor();
  seen.laterCanceled = (await later.textContent()).trim();

  await page.reload();
  await voucher(page, soonID).locator('.remind').waitFor();
  seen.soonAfterReload = await soon.getAttribute('aria-pressed');
  seen.laterAfterReload = await later.getAttribute('aria-pressed');
  seen.userCounts = await voucher(page, soonID).locator('.reminder-count').count();

  // The inbox: the reminder, naming the sale, leading to its shop.
  await page.click('#bell');
  await page.waitForURL(/#\/inbox$/);
  const item = page.locator('li.notification[data-kind="SALE_REMINDER"]');
  await item.waitFor({ timeout: 20000 });
  seen.reminders = await item.count();
  seen.text = (await item.first().locator('.text').textContent()).trim();
  seen.href = await item.first().locator('a').getAttribute('href');
  await shoot(page, shots, 'inbox-reminder');

  // Deals near me, from the shop, show the reminders as they stand.
  await page.goto(base + '/app/#/deals');
  await page.waitForSelector('ul.deals[data-shown]');
  const deal = page.locator(`li.deal[data-voucher="${soonID}"] .remind`);
  const has = (id) => page.locator(`li.deal[data-voucher="${id}"]`).count();
  while ((!await has(soonID) || !await has(laterID)) && await page.locator('#more-deals').count()) {
    const n = await page.locator('li.deal').count();
    await page.click('#more-deals');
    await page.waitForFunction((k) => document.querySelectorAll('li.deal').length > k, n);
  }
  await deal.waitFor({ timeout: 20000 });
  seen.dealSoon = await deal.getAttribute('aria-pressed');
  seen.dealLater = await page.getAttribute(`li.deal[data-voucher="${laterID}"] .remind`, 'aria-pressed');
  await page.locator(`li.deal[data-voucher="${soonID}"]`).scrollIntoViewIfNeeded();
  await shoot(page, shots, 'deals-reminder');

  // The merchant: the counts on the board's list of their sales and on the shop's page.
  const m = await (await browser.newContext({ viewport: sizes.phone, locale: 'zh-CN' })).newPage();
  await m.goto(base + '/app/');
  await m.evaluate((s) => {
    const auth = JSON.parse(s);
    localStorage.setItem('access', auth.accessToken);
    localStorage.setItem('refresh', auth.refreshToken);
    localStorage.setItem('user', JSON.stringify(auth.user));
  }, merchant);
  await m.goto(base + '/app/#/board');
  await m.reload();
  const mine = (id) => m.locator(`li.my-sale[data-voucher="${id}"] .reminder-count`);
  await mine(soonID).waitFor({ timeout: 20000 });
  seen.boardSoon = await mine(soonID).getAttribute('data-count');
  seen.boardLater = await mine(laterID).getAttribute('data-count');
  await shoot(m, shots, 'merchant-reminders', { fullPage: true });
  await m.goto(base + `/app/#/shop/${shopID}`);
  await voucher(m, soonID).locator('.reminder-count').waitFor();
  seen.shopSoon = await voucher(m, soonID).locator('.reminder-count').getAttribute('data-count');
  seen.title = soonTitle;
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}

// The waitlist: user A holds the one unit of a sale (an order in CREATED). B, in the
// browser, claims it and is answered sold out, joins the waitlist and sees position 1 in
// My waitlist. A cancels the order (over the API): B's bell rises without a reload, My
// waitlist shows the offer with a countdown, and the inbox's offer leads there (it reads
// in Chinese when the header's button switches the language). B accepts: the page names the order, which My orders lists, and the place is gone. Prints what
// the pages showed as JSON.
// usage: node waitlist.mjs <base URL> <shop id> <sale id> <sale title> <phone B> <A's access token> <A's order id> [screenshot dir]
import { launch, logIn, shoot, sizes } from './common.mjs';

const [base, shopID, saleID, title, phone, tokenA, orderA, shots] = process.argv.slice(2);
const browser = await launch();
try {
  const page = await (await browser.newContext({ viewport: sizes.phone, locale: 'en-US' })).newPage();
  await logIn(page, base, phone);
  await page.evaluate(() => localStorage.setItem('lang', 'en'));
  await page.goto(base + `/app/#/shop/${shopID}`);
  await page.reload();
  const sale = page.locator('li.voucher', { has: page.locator(`.heart[data-id="${saleID}"]`) });
  await sale.locator('.claim').click();
  await sale.locator('.claim-answer').waitFor();
  const seen = { answer: (await sale.locator('.claim-answer').textContent()).trim() };
  await sale.locator('.join-waitlist').click();
  await sale.locator('.waitlist-place .position').waitFor();
  seen.joinedPosition = (await sale.locator('.waitlist-place .position').textContent()).trim();
  await shoot(page, shots, 'waitlist-join');

  await page.click('#waitlist-link');
  await page.waitForURL(/#\/waitlist$/);
  const place = page.locator(`li.place[data-voucher="${saleID}"]`);
  await place.locator('.position').waitFor();
  seen.position = (await place.locator('.position').textContent()).trim();
  seen.statusBefore = await place.getAttribute('data-status');
  await page.waitForSelector('#bell');
  seen.bellBefore = await page.getAttribute('#bell', 'data-unread');
  await page.evaluate(() => { window.notReloaded = true; });
  await shoot(page, shots, 'waitlist');

  // A cancels: the unit comes back and is held for B.
  const r = await (await fetch(base + '/graphql', {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + tokenA },
    body: JSON.stringify({ query: 'mutation($o: ID!) { cancelOrder(orderId: $o) { status } }', variables: { o: orderA } }),
  })).json();
  seen.canceled = r.data?.cancelOrder?.status ?? JSON.stringify(r.errors);
  await page.waitForSelector('#bell[data-unread="1"]', { timeout: 20000 });
  seen.bellAfter = await page.getAttribute('#bell', 'data-unread');
  await place.locator('.offer-countdown').waitFor({ timeout: 20000 });
  seen.statusOffered = await place.getAttribute('data-status');
  seen.countdown = [(await place.locator('.offer-countdown').textContent()).trim()];
  await page.waitForTimeout(2100);
  seen.countdown.push((await place.locator('.offer-countdown').textContent()).trim());
  seen.notReloaded = await page.evaluate(() => window.notReloaded === true);
  await shoot(page, shots, 'waitlist-offer');

  // The inbox's offer leads to My waitlist.
  await page.click('#bell');
  await page.waitForURL(/#\/inbox$/);
  const offer = page.locator('li.notification[data-kind="WAITLIST_OFFER"]');
  await offer.waitFor({ timeout: 20000 });
  seen.offerText = (await offer.locator('.text').textContent()).trim();
  seen.offerHref = await offer.locator('a').getAttribute('href');
  // The same offer in Chinese, by the header's language button; the button reads EN once
  // the page has been drawn again in Chinese. Then back to English.
  const language = page.locator('button[aria-label="language"]');
  await language.click();
  await language.filter({ hasText: 'EN' }).waitFor();
  seen.langZh = await page.getAttribute('html', 'lang');
  seen.offerTextZh = (await offer.locator('.text').textContent()).trim();
  await shoot(page, shots, 'waitlist-offer-zh');
  await language.click();
  await language.filter({ hasText: '中文' }).waitFor();
  await offer.locator('a').click();
  await page.waitForURL(/#\/waitlist$/);

  await place.locator('.accept').click();
  await page.locator('.order-made').waitFor();
  seen.order = await page.getAttribute('.order-made', 'data-order');
  seen.orderStatus = await page.getAttribute('.order-made', 'data-status');
  await page.waitForFunction((id) => !document.querySelector(`li.place[data-voucher="${id}"]`), saleID);
  seen.placesAfter = await page.locator('li.place').count();
  await shoot(page, shots, 'waitlist-accepted');
  await page.click('#see-orders');
  await page.waitForURL(/#\/orders$/);
  await page.locator('main li', { hasText: title }).waitFor();
  seen.orders = await page.$$eval('main li', (els) => els.map((e) => e.textContent.trim()));
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}

// A merchant watches a sale's live board while claims flood in. With the voucher id
// "new:<shop>:<title>:<stock>:<buckets>" the merchant first publishes the sale with the
// board's form. Prints READY <voucher id> once the board shows the sale, then the
// distinct numbers of accepted claims it showed until it showed at least the target (or
// 60 s passed), as JSON.
// usage: node board.mjs <base URL> <voucher id | new:…> <merchant phone> <target> [screenshot dir]
import { launch, logIn } from './common.mjs';

const [base, voucherID, phone, target, shots] = process.argv.slice(2);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
  await logIn(page, base, phone);
  let id = voucherID;
  if (voucherID.startsWith('new:')) {
    const [, shop, title, stock, buckets] = voucherID.split(':');
    await page.goto(base + '/app/#/board');
    await page.fill('#sale-shop', shop);
    await page.fill('#sale-title', title);
    await page.fill('#sale-stock', stock);
    await page.fill('#sale-buckets', buckets);
    if (shots) await page.screenshot({ path: `${shots}/board-new-sale.png` });
    await page.click('#create-sale');
    await page.waitForFunction(() => /#\/board\/\d+$/.test(location.hash));
    id = await page.evaluate(() => location.hash.split('/').pop());
  } else {
    await page.goto(base + '/app/#/board/' + voucherID);
  }
  await page.waitForSelector('#stat-accepted');
  const shown = [Number(await page.textContent('#stat-accepted'))];
  console.log('READY ' + id);
  const deadline = Date.now() + 60000;
  while (shown.at(-1) < Number(target) && Date.now() < deadline) {
    await page.waitForTimeout(100);
    const n = Number(await page.textContent('#stat-accepted'));
    if (n !== shown.at(-1)) shown.push(n);
  }
  if (shots) await page.screenshot({ path: `${shots}/board-desktop.png` });
  // The chart's axes: its value ticks and its time labels, and the plotted line.
  const ticks = await page.$$eval('.chart .tick', (ts) => ts.map((el) => el.textContent));
  const plotted = await page.$eval('.chart polyline', (el) => el.getAttribute('points').trim().split(/\s+/).filter(Boolean).length);
  console.log(JSON.stringify({ shown, remaining: Number(await page.textContent('#stat-remaining')), ticks, plotted }));
} finally {
  await browser.close();
}

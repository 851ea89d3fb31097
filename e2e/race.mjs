// Two people, each in a browser context of their own, press "claim" on the last unit
// of a flash sale at the same moment. Prints what each page then says.
// usage: node race.mjs <base URL> <shop id> <sale title> <phone A> <phone B>
import { launch, logIn } from './common.mjs';

const [base, shopID, title, ...phones] = process.argv.slice(2);
const browser = await launch();
try {
  const pages = [];
  for (const phone of phones) {
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await logIn(page, base, phone);
    await page.goto(base + '/app/#/shop/' + shopID);
    await page.locator('li.voucher', { hasText: title }).locator('.claim').waitFor();
    pages.push(page);
  }
  await Promise.all(pages.map((p) => p.locator('li.voucher', { hasText: title }).locator('.claim').click()));
  const results = await Promise.all(pages.map(async (p) => {
    const sale = p.locator('li.voucher', { hasText: title });
    await sale.locator('.order-status, .claim-answer').first().waitFor();
    // Both pages then show the sale sold out, pushed by saleProgress without a reload.
    await sale.locator('.stock[data-live="true"][data-remaining="0"]').waitFor({ timeout: 15000 });
    const stock = (await sale.locator('.stock').textContent()).trim();
    if (await sale.locator('.order-status').count()) return { won: true, status: await sale.locator('.order-status').getAttribute('data-status'), stock };
    return { won: false, answer: await sale.locator('.claim-answer').textContent(), stock };
  }));
  console.log(JSON.stringify(results));
} finally {
  await browser.close();
}

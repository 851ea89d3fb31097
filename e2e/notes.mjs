// A user writes a note with a photo, then likes and comments on it, and signs in for
// the day. Prints what the pages showed as JSON.
// usage: node notes.mjs <base URL> <phone> <photo file> [screenshot dir]
import { launch, logIn, shoot, sizes } from './common.mjs';

const [base, phone, photo, shots] = process.argv.slice(2);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: sizes.phone, locale: 'zh-CN' });
  await logIn(page, base, phone);
  await page.goto(base + '/app/#/write');
  await page.fill('#note-shop', '1');
  await page.fill('#note-title', '窗边的位置');
  await page.fill('#note-content', '下午的阳光很好，咖啡也不错。');
  await page.selectOption('#note-rating', '5');
  await page.setInputFiles('#note-photo', photo);
  await page.click('#publish');
  await page.waitForURL(/#\/note\/\d+$/);
  const img = page.locator('.note-image');
  await img.waitFor();
  await page.waitForFunction(() => document.querySelector('.note-image')?.complete);
  const seen = { imageWidth: await img.evaluate((el) => el.naturalWidth), src: await img.getAttribute('src'),
    // The size the page set on the image, from the note's images, before it loaded.
    imageSize: `${await img.getAttribute('width')}x${await img.getAttribute('height')}` };
  // An access token that no longer holds: the app refreshes the session with its
  // refresh token and carries on.
  await page.evaluate(() => localStorage.setItem('access', 'expired.token.value'));
  await page.click('#like');
  await page.waitForFunction(() => document.querySelector('#like')?.textContent.includes('1'));
  seen.liked = (await page.textContent('#like')).trim();
  await page.fill('#comment', '下次一起去');
  await page.click('form:has(#comment) button[type=submit]');
  await page.locator('.comments li', { hasText: '下次一起去' }).waitFor();
  seen.commented = true;
  await shoot(page, shots, 'note', { fullPage: true });
  await page.goto(base + '/app/#/signin');
  await page.click('#sign-in');
  await page.waitForSelector('.calendar span.signed');
  seen.streak = Number(await page.textContent('#streak'));
  await shoot(page, shots, 'signin');
  // Logging out ends the session: the tokens are gone and the login link is back.
  await page.click('header button:has-text("退出")');
  await page.waitForSelector('header a[href="#/login"]');
  seen.loggedOut = await page.evaluate(() => !localStorage.getItem('access') && !localStorage.getItem('refresh'));
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}

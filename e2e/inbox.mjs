// The inbox: user A writes a note; B, then C, like it in browsers of their own. A's bell
// goes from 0 to 1 without a reload (the notificationAdded subscription); the inbox shows
// one grouped notification naming both; marking all read clears the bell. After the
// session is refreshed (a new socket), B's comment turns the bell to 1 again. A setting
// changed in the inbox's panel holds after a reload. Prints what the pages showed as JSON.
// usage: node inbox.mjs <base URL> <phone A> <phone B> <phone C> [screenshot dir]
import { launch, logIn, shoot, sizes, watchBell } from './common.mjs';

const [base, phoneA, phoneB, phoneC, shots] = process.argv.slice(2);
const browser = await launch();
const context = () => browser.newContext({ viewport: sizes.phone, locale: 'zh-CN' });
const title = '巷子里的小面馆';
try {
  const a = await (await context()).newPage();
  await logIn(a, base, phoneA);
  await a.goto(base + '/app/#/write');
  await a.fill('#note-shop', '2');
  await a.fill('#note-title', title);
  await a.fill('#note-content', '汤头浓，面条筋道，十五块吃得很饱。');
  await a.click('#publish');
  await a.waitForURL(/#\/note\/\d+$/);
  const noteURL = a.url();
  await a.goto(base + '/app/#/');
  await a.waitForSelector('#bell');
  const seen = { before: await a.getAttribute('#bell', 'data-unread'), badgeBefore: await a.locator('#unread-badge').count() };
  await watchBell(a);

  const like = async (phone) => {
    const p = await (await context()).newPage();
    await logIn(p, base, phone);
    await p.goto(noteURL);
    await p.click('#like');
    await p.waitForFunction(() => document.querySelector('#like')?.getAttribute('aria-pressed') === 'true');
    return p;
  };
  const b = await like(phoneB);
  seen.likerB = await b.evaluate(() => JSON.parse(localStorage.getItem('user')).nickName);
  await a.waitForSelector('#bell[data-unread="1"]', { timeout: 20000 });
  seen.badge = await a.textContent('#unread-badge');
  const c = await like(phoneC);
  seen.likerC = await c.evaluate(() => JSON.parse(localStorage.getItem('user')).nickName);

  // The inbox: one notification for both likes, unread, leading to the note.
  await a.click('#bell');
  await a.waitForURL(/#\/inbox$/);
  const item = a.locator('li.notification[data-kind="BLOG_LIKED"]');
  await item.locator('text=等 2 人').waitFor({ timeout: 20000 });
  seen.items = await a.locator('li.notification').count();
  seen.text = (await item.locator('.text').textContent()).trim();
  seen.unreadItems = await a.locator('li.notification.unread').count();
  seen.href = await item.locator('a').getAttribute('href');
  seen.unreadAfterBoth = await a.getAttribute('#bell', 'data-unread');
  await a.click('#settings-toggle');
  await a.waitForSelector('#notify-likes');
  await shoot(a, shots, 'inbox', { fullPage: true });

  await a.click('#mark-read');
  await a.waitForSelector('#bell[data-unread="0"]', { timeout: 10000 });
  seen.after = await a.getAttribute('#bell', 'data-unread');
  seen.badgeAfter = await a.locator('#unread-badge').count();
  seen.unreadItemsAfter = await a.locator('li.notification.unread').count();

  // The access token runs out and the next request refreshes the session, which opens a
  // new socket: the bell listens again on it, and B's comment turns it to 1.
  await a.evaluate(() => localStorage.setItem('access', 'expired.token.value'));
  await a.click('header a[href="#/favorites"]');
  seen.refreshed = await a.waitForFunction(() => !['', null, 'expired.token.value'].includes(localStorage.getItem('access')))
    .then(() => true, () => false);
  await b.fill('#comment', '看起来不错');
  await b.click('form:has(#comment) button[type=submit]');
  await b.locator('.comments li', { hasText: '看起来不错' }).waitFor();
  await a.waitForSelector('#bell[data-unread="1"]', { timeout: 20000 });
  seen.afterComment = await a.getAttribute('#bell', 'data-unread');
  seen.shown = await a.evaluate(() => window.unreadShown);
  seen.notReloaded = await a.evaluate(() => window.notReloaded === true);
  await a.goto(base + '/app/#/inbox');
  await a.click('#settings-toggle');

  // Settings: follows off, kept after a reload, then on again.
  await a.uncheck('#notify-follows');
  await a.waitForSelector('#inbox-settings[data-saved="1"]');
  await a.reload();
  await a.click('#settings-toggle');
  await a.waitForSelector('#notify-follows');
  seen.followsAfterReload = await a.isChecked('#notify-follows');
  seen.likesAfterReload = await a.isChecked('#notify-likes');
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}

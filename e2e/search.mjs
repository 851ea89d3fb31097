// Search: from the header's box, a part of a shop's name finds the shop with the part
// marked; a word of a note's text finds the note on the notes tab; a name one character
// off still finds the shop; a note holding markup shows it as text; a common word pages
// with "load more"; a nickname finds the person. Prints what the pages showed as JSON.
// usage: node search.mjs <base URL> <shop part> <note word> <typo> <markup word> <paging word> <nick part> [screenshot dir]
import { launch, shoot, sizes } from './common.mjs';

const [base, shopPart, noteWord, typo, markupWord, pagingWord, nickPart, shots] = process.argv.slice(2);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: sizes.phone, locale: 'zh-CN' });
  await page.goto(base + '/app/');
  await page.waitForSelector('.shop-link');
  // results waits for the page of kind and query q and answers what it lists.
  const results = async (kind, q) => {
    await page.waitForURL((u) => u.hash === `#/search/${kind}/${encodeURIComponent(q)}`);
    await page.waitForFunction((want) => document.querySelector('ul.results')?.dataset.shown === want, `${kind}:${q}`);
    return page.$$eval('li.result', (els) => els.map((e) => ({
      title: e.querySelector('.result-title').textContent.trim(),
      marks: [...e.querySelectorAll('mark')].map((m) => m.textContent),
      snippet: [...e.querySelectorAll('.snippet')].map((s) => s.textContent).join(' | '),
      href: e.querySelector('a')?.getAttribute('href') ?? '' })));
  };
  const search = async (q) => { await page.fill('#search-box', q); await page.press('#search-box', 'Enter'); };
  const seen = {};
  await search(shopPart);
  seen.shops = await results('SHOP', shopPart);
  await shoot(page, shots, 'search');
  await page.click('#search-NOTE');
  await search(noteWord);
  seen.notes = await results('NOTE', noteWord);
  await shoot(page, shots, 'search-notes');
  await page.click('#search-SHOP');
  await search(typo);
  seen.typo = await results('SHOP', typo);
  await page.click('#search-NOTE');
  await search(markupWord);
  seen.markup = await results('NOTE', markupWord);
  seen.injected = await page.$$eval('.snippet img, .snippet script, .snippet b, .result-title img:not(.avatar)', (els) => els.length);
  seen.pwned = await page.evaluate(() => window.pwned === 1);
  await page.click('#search-SHOP');
  await search(pagingWord);
  const first = await results('SHOP', pagingWord);
  seen.pagingFirst = first.length;
  await page.click('#more-results');
  await page.waitForFunction((k) => document.querySelectorAll('li.result').length > k, first.length);
  seen.paged = await page.$$eval('li.result', (els) => els.map((e) => e.querySelector('a').getAttribute('href')));
  await page.click('#search-USER');
  await page.waitForSelector('ul.results[data-shown^="USER:"]');
  await search(nickPart);
  seen.users = await results('USER', nickPart);
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}

// Uploads an image the way a web page does: a file chosen in a form's file input, sent
// with FormData by fetch under the GraphQL multipart request spec, then shown in an <img>.
// usage: node upload.mjs <base URL> <access token> <image file>
// Prints the uploaded image as JSON, with the size the browser decoded it at.
import { chromium } from 'playwright-core';

const [base, token, file] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  // A page of the server's own origin, holding a form with a file input.
  await page.goto(base + '/healthz');
  await page.evaluate(() => {
    document.body.innerHTML = '<form id="upload"><input type="file" id="file" accept="image/*"></form>';
  });
  await page.setInputFiles('#file', file);
  const result = await page.evaluate(async (token) => {
    const chosen = document.getElementById('file').files[0];
    const form = new FormData();
    form.append('operations', JSON.stringify({
      query: 'mutation($f: Upload!) { uploadImage(file: $f) { url width height contentType } }',
      variables: { f: null },
    }));
    form.append('map', JSON.stringify({ 0: ['variables.f'] }));
    form.append('0', chosen, chosen.name);
    const res = await fetch('/graphql', { method: 'POST', headers: { Authorization: 'Bearer ' + token, 'GraphQL-Require-Preflight': '1' }, body: form });
    const body = await res.json();
    if (!body.data || !body.data.uploadImage) return { status: res.status, errors: body.errors };
    const img = new Image();
    img.src = body.data.uploadImage.url;
    await img.decode();
    return { status: res.status, ...body.data.uploadImage, shownWidth: img.naturalWidth, shownHeight: img.naturalHeight };
  }, token);
  console.log(JSON.stringify(result));
} finally {
  await browser.close();
}

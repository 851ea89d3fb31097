// What the app's pages share: money and distances as shown, a clock, photos, where the
// user is, and the favourite heart.
import { useEffect, useState } from 'preact/hooks';
import { gql, session } from './api.js';
import { graphql } from './gql';
import { t } from './i18n.js';

export const money = (cents) => (cents / 100).toFixed(cents % 100 ? 2 : 0);
export const distance = (m) => (m < 1000 ? Math.round(m) + ' m' : (m / 1000).toFixed(1) + ' km');

export const countdown = (ms) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

// timeLeft is a span of time as a person reads it: days and hours past a day, else a countdown.
export const timeLeft = (ms) => {
  const h = Math.floor(Math.max(0, ms) / 3600e3);
  return h >= 24 ? `${Math.floor(h / 24)}${t('days')} ${h % 24}${t('hours')}` : countdown(ms);
};

// ago is how long ago an instant was, roughly.
export const ago = (iso) => {
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return t('justNow');
  if (s < 3600) return Math.floor(s / 60) + ' ' + t('minAgo');
  if (s < 86400) return Math.floor(s / 3600) + ' ' + t('hAgo');
  return new Date(iso).toLocaleDateString();
};

export function useNow() {
  const [now, setNow] = useState(Date.now());
  useEffect(() => { const i = setInterval(() => setNow(Date.now()), 1000); return () => clearInterval(i); }, []);
  return now;
}

// Photo shows an image at its own size, so the page keeps its place while it loads; an
// image of another site, whose size the server does not know, gets the fallback's
// [width, height], if any.
export function Photo({ img, fallback, ...props }) {
  const [w, h] = img.width && img.height ? [img.width, img.height] : fallback || [];
  return <img src={img.url} alt="" width={w} height={h} {...props} />;
}

// The center of the demo city, where a browser that gives no position is taken to be.
const cityCenter = { lon: 120.155, lat: 30.274, guessed: true };

// locate calls back with the browser's position, or (refused or unavailable) the city center.
export function locate(done) {
  if (!navigator.geolocation) { done(cityCenter); return; }
  navigator.geolocation.getCurrentPosition((p) => done({ lon: p.coords.longitude, lat: p.coords.latitude }), () => done(cityCenter), { timeout: 5000 });
}

const FavoriteShop = graphql(`mutation FavoriteShop($id: ID!) { mark: favoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }`);
const UnfavoriteShop = graphql(`mutation UnfavoriteShop($id: ID!) { mark: unfavoriteShop(shopId: $id) { id favoritedByMe favoriteCount } }`);
const FavoriteVoucher = graphql(`mutation FavoriteVoucher($id: ID!) { mark: favoriteVoucher(voucherId: $id) { id favoritedByMe } }`);
const UnfavoriteVoucher = graphql(`mutation UnfavoriteVoucher($id: ID!) { mark: unfavoriteVoucher(voucherId: $id) { id favoritedByMe } }`);

// Heart marks a shop (kind "shop") or a voucher ("voucher") as a favourite, or takes the
// mark back; a shop's shows how many people marked it when count is given. Anonymous
// callers are sent to log in.
export function Heart({ kind, id, on, count }) {
  const [state, setState] = useState({ on, count });
  const [busy, setBusy] = useState(false);
  useEffect(() => setState({ on, count }), [id, on, count]);
  const toggle = async (e) => {
    e.preventDefault();
    if (!session.access) { location.hash = '#/login'; return; }
    setBusy(true);
    try {
      const shop = kind === 'shop';
      const d = await gql(state.on ? (shop ? UnfavoriteShop : UnfavoriteVoucher) : (shop ? FavoriteShop : FavoriteVoucher), { id });
      setState({ on: d.mark.favoritedByMe, count: d.mark.favoriteCount ?? state.count });
    } catch { /* the heart stays as it was */ } finally { setBusy(false); }
  };
  return (
    <button type="button" class="heart" data-kind={kind} data-id={id} aria-pressed={state.on} disabled={busy}
      title={t(state.on ? 'unfavorite' : 'favorite')} aria-label={t(state.on ? 'unfavorite' : 'favorite')} onClick={toggle}>
      <span aria-hidden="true">{state.on ? '♥' : '♡'}</span>{state.count != null && <span class="heart-count">{state.count}</span>}
    </button>
  );
}

// More is the "load more" button of a paged list: shown while there is a next page.
export function More({ next, load, id }) {
  const [busy, setBusy] = useState(false);
  if (!next) return null;
  return <button id={id} class="more" disabled={busy} onClick={() => { setBusy(true); load(next).finally(() => setBusy(false)); }}>{t('more')}</button>;
}

// ShopCard is a shop in a list: its first photo, name and figures, and, when the list
// was read with favoritedByMe (a logged-in user's), its heart.
export function ShopCard({ s }) {
  return (
    <li class="shop-card" data-shop={s.id}><a href={`#/shop/${s.id}`} class="shop-link">
      {/* The card's thumbnail has a box of its own (cropped to fill it), whatever the photo's size. */}
      {s.images[0] && <img src={s.images[0].url} alt="" class="shop-photo" loading="lazy" width="96" height="64" />}
      <div><b>{s.name}</b>
        <span>{s.distance != null && <b class="distance">{distance(s.distance)} · </b>}
          {s.area} · {t('perPerson')} ¥{money(s.avgPrice)} · {t('score')} {(s.score / 10).toFixed(1)} · {s.comments} {t('reviews')}</span></div></a>
      {s.favoritedByMe != null && <Heart kind="shop" id={s.id} on={s.favoritedByMe} count={s.favoriteCount} />}
    </li>
  );
}

// answer is an error as the user reads it: the code's text in the user's language, else
// the server's message.
export const answer = (x) => (x.code && t(x.code) !== x.code ? t(x.code) : x.message);

// The bell the header's inbox link and the reminder toggle are drawn with.
export const BellIcon = ({ size = 22 }) => (
  <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" class="icon"><path fill="currentColor"
    d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z" /></svg>
);

const RemindMe = graphql(`mutation RemindMe($id: ID!) { mark: remindMe(voucherId: $id) { id remindedByMe reminderCount } }`);
const CancelReminder = graphql(`mutation CancelReminder($id: ID!) { mark: cancelReminder(voucherId: $id) { id remindedByMe reminderCount } }`);

// Remind asks for (or takes back) a reminder shortly before an upcoming flash sale
// begins; it tells the caller the sale's new reminder count, which the shop's merchant
// sees (onCount). Anonymous callers are sent to log in.
export function Remind({ id, on, onCount }) {
  const [set, setSet] = useState(on);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  useEffect(() => setSet(on), [id, on]);
  const toggle = async (e) => {
    e.preventDefault();
    if (!session.access) { location.hash = '#/login'; return; }
    setBusy(true); setErr('');
    try {
      const d = await gql(set ? CancelReminder : RemindMe, { id });
      setSet(d.mark.remindedByMe);
      if (d.mark.reminderCount != null) onCount?.(d.mark.reminderCount);
    } catch (x) { setErr(answer(x)); } finally { setBusy(false); }
  };
  return (
    <>
      <button type="button" class="remind" data-id={id} aria-pressed={set} disabled={busy}
        title={t(set ? 'reminderOn' : 'remindMe')} aria-label={t(set ? 'reminderSet' : 'remindMe')} onClick={toggle}>
        <BellIcon size={16} /><span>{t(set ? 'reminderSet' : 'remindMe')}</span>
      </button>
      {err && <span role="alert" class="error remind-error">{err}</span>}
    </>
  );
}

// Deals near me: the vouchers and flash sales of the shops around the user, in the
// order the user picks, a page at a time.
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from './api.js';
import { graphql } from './gql';
import { t } from './i18n.js';
import { Heart, More, Remind, distance, locate, money, timeLeft, useNow } from './ui.jsx';

const DealsNearby = graphql(`query DealsNearby($lon: Float!, $lat: Float!, $r: Int, $sort: DealSort, $a: String) {
  dealsNearby(longitude: $lon, latitude: $lat, radius: $r, sort: $sort, first: 10, after: $a) {
    edges { node { distanceMeters discount beginsAt endsAt secondsLeft remainingStock live
      voucher { id title payValue actualValue kind favoritedByMe remindedByMe }
      shop { id name area score images { url } } } }
    pageInfo { hasNextPage endCursor } } }`);

export const dealSorts = ['DISTANCE', 'DISCOUNT', 'SCORE', 'ENDING_SOON'];
const radii = [1000, 3000, 5000, 10000, 20000];

export function Deals() {
  const [near, setNear] = useState(null);
  const [sort, setSort] = useState('DISTANCE');
  const [radius, setRadius] = useState(5000);
  const [deals, setDeals] = useState(null);
  // shown is the order and radius the list was read with.
  const [shown, setShown] = useState('');
  const [next, setNext] = useState(null);
  const [err, setErr] = useState('');
  useEffect(() => { locate(setNear); }, []);
  // seq numbers the first-page reads: an answer to an older one is dropped.
  const seq = useRef(0);
  const load = async (after) => {
    setErr('');
    try {
      const my = after ? seq.current : ++seq.current;
      const d = await gql(DealsNearby, { lon: near.lon, lat: near.lat, r: radius, sort, a: after || null });
      if (my !== seq.current) return;
      // The time left is counted from when the page was read, whatever the user's clock says.
      const read = Date.now();
      const list = d.dealsNearby.edges.map(({ node: n }) => {
        const ends = n.secondsLeft != null ? read + n.secondsLeft * 1000 : null;
        return { ...n, endsAtLocal: ends, beginsAtLocal: ends != null && n.beginsAt ? ends - (Date.parse(n.endsAt) - Date.parse(n.beginsAt)) : null };
      });
      setDeals((old) => (after ? [...old, ...list] : list));
      setShown(`${sort}:${radius}`);
      setNext(d.dealsNearby.pageInfo.hasNextPage ? d.dealsNearby.pageInfo.endCursor : null);
    } catch (x) { setErr(t(x.code) === x.code ? x.message : t(x.code)); }
  };
  useEffect(() => { if (near) load(null); }, [near, sort, radius]);
  const now = useNow();
  return (
    <section>
      <h1>{t('dealsNear')}</h1>
      {near && <p class="meta">{t('around')} {near.lat.toFixed(4)}, {near.lon.toFixed(4)}{near.guessed ? ' (' + t('guessed') + ')' : ''}</p>}
      <div class="row">
        <div class="types sorts" role="tablist" aria-label={t('sortBy')}>
          {dealSorts.map((s) => <button role="tab" id={'sort-' + s} aria-selected={sort === s} onClick={() => setSort(s)}>{t('sort_' + s)}</button>)}
        </div>
        <label class="inline">{t('radius')} <select id="deal-radius" value={radius} onChange={(e) => setRadius(Number(e.currentTarget.value))}>
          {radii.map((r) => <option value={r}>{distance(r)}</option>)}</select></label>
      </div>
      {err && <p role="alert" class="error">{err}</p>}
      {deals && deals.length === 0 && <p class="meta">{t('noDeals')}</p>}
      <ul class="deals" data-shown={shown}>{deals?.map((d) => {
        const v = d.voucher;
        const upcoming = d.beginsAtLocal != null && d.beginsAtLocal > now;
        return (
          <li class="deal" data-voucher={v.id} data-distance={d.distanceMeters} data-discount={d.discount}
            data-score={d.shop.score} data-seconds-left={d.secondsLeft ?? ''}>
            <a href={`#/shop/${d.shop.id}`} class="shop-link">
              {d.shop.images[0] && <img src={d.shop.images[0].url} alt="" class="shop-photo" loading="lazy" width="96" height="64" />}
              <div>
                <b>{v.title}</b>
                <span class="price"><b>¥{money(v.payValue)}</b> <s>¥{money(v.actualValue)}</s> <em class="discount">{t('save')} ¥{money(d.discount)}</em></span>
                <span>{d.shop.name} · {t('score')} {(d.shop.score / 10).toFixed(1)}</span>
                <span><b class="distance">{distance(d.distanceMeters)}</b>
                  {v.kind === 'FLASH_SALE' && (upcoming
                    ? <> · <span class="time-left">{t('startsIn')} {timeLeft(d.beginsAtLocal - now)}</span></>
                    : d.endsAtLocal != null && <> · <span class="time-left">{t('endsIn')} {timeLeft(d.endsAtLocal - now)}</span></>)}
                  {d.remainingStock != null && <> · <span class="remaining">{t('left')} {d.remainingStock}</span></>}
                </span>
              </div>
            </a>
            <span class="deal-actions">
              <Heart kind="voucher" id={v.id} on={v.favoritedByMe} />
              {v.kind === 'FLASH_SALE' && upcoming && <Remind id={v.id} on={v.remindedByMe} />}
            </span>
          </li>);
      })}</ul>
      <More next={next} load={load} id="more-deals" />
    </section>
  );
}

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { gql, session, subscribe, subscribePublic } from './api.js';
import { graphql } from './gql';
import { Deals } from './deals.jsx';
import { Favorites } from './favorites.jsx';
import { lang, setLang, t } from './i18n.js';
import { Bell, Inbox } from './inbox.jsx';
import { SearchBox, SearchPage } from './search.jsx';
import { Waitlist } from './waitlist.jsx';
import { Heart, Photo, Remind, ShopCard, answer, countdown, locate, money, timeLeft, useNow } from './ui.jsx';
import './style.css';

// Hash routes: #/ shops, #/shop/<id>, #/login, #/orders, #/deals, #/favorites, #/inbox, #/waitlist,
// #/search/<kind>/<query>, …
function useRoute() {
  const [hash, setHash] = useState(location.hash.slice(2));
  useEffect(() => {
    const on = () => setHash(location.hash.slice(2));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash.split('/').map((p) => { try { return decodeURIComponent(p); } catch { return p; } });
}

function App() {
  const [, rerender] = useState(0);
  const [page, id, arg] = useRoute();
  const user = session.user;
  return (
    <>
      <header>
        <a href="#/" class="brand">Dealspot</a>
        {user && <Bell user={user} />}
        <SearchBox kind={page === 'search' ? id : null} query={page === 'search' ? arg : ''} />
        <nav>
          <a href="#/">{t('shops')}</a>
          <a href="#/deals">{t('deals')}</a>
          <a href="#/notes">{t('notes')}</a>
          {user && <a href="#/favorites">{t('favorites')}</a>}
          {user && <a href="#/signin">{t('signInDaily')}</a>}
          {user && <a href="#/orders">{t('orders')}</a>}
          {user && <a href="#/waitlist" id="waitlist-link">{t('waitlist')}</a>}
          {user && user.role !== 'USER' && <a href="#/board">{t('board')}</a>}
          {user
            ? <button onClick={() => { gql(graphql(`mutation Logout{ logout }`)).catch(() => {}); session.clear(); location.hash = '#/'; rerender((n) => n + 1); }}>{t('logout')}</button>
            : <a href="#/login">{t('login')}</a>}
          <button aria-label="language" onClick={() => { setLang(lang === 'zh' ? 'en' : 'zh'); rerender((n) => n + 1); }}>
            {lang === 'zh' ? 'EN' : '中文'}
          </button>
        </nav>
      </header>
      <main>
        {page === 'login' ? <Login onDone={() => { location.hash = '#/'; rerender((n) => n + 1); }} />
          : page === 'shop' ? <Shop id={id} />
          : page === 'orders' ? <Orders />
          : page === 'board' ? <Board voucherId={id} />
          : page === 'notes' ? <Notes />
          : page === 'note' ? <Note id={id} />
          : page === 'write' ? <Write />
          : page === 'signin' ? <SignIn />
          : page === 'deals' ? <Deals />
          : page === 'favorites' ? <Favorites />
          : page === 'inbox' ? <Inbox />
          : page === 'waitlist' ? <Waitlist />
          : page === 'search' ? <SearchPage kind={id || 'SHOP'} query={arg || ''} />
          : <Shops />}
      </main>
    </>
  );
}

function Login({ onDone }) {
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [dev, setDev] = useState('');
  const [err, setErr] = useState('');
  const send = async (e) => {
    e.preventDefault(); setErr('');
    try {
      const d = await gql(graphql(`mutation SendLoginCode($p: String!) { sendLoginCode(phone: $p) { sent devCode } }`), { p: phone });
      if (d.sendLoginCode.devCode) { setDev(d.sendLoginCode.devCode); setCode(d.sendLoginCode.devCode); }
    } catch (x) { setErr(x.message); }
  };
  const login = async (e) => {
    e.preventDefault(); setErr('');
    try {
      const d = await gql(graphql(`mutation Login($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken refreshToken user { id nickName role } } }`), { p: phone, c: code });
      session.save(d.login); onDone();
    } catch (x) { setErr(x.message); }
  };
  return (
    <form class="card" onSubmit={login}>
      <h1>{t('login')}</h1>
      <label>{t('phone')} <input id="phone" inputMode="tel" autoComplete="tel" value={phone} onInput={(e) => setPhone(e.currentTarget.value)} /></label>
      <button type="button" id="send-code" onClick={send}>{t('sendCode')}</button>
      {dev && <p class="hint">{t('devCode')}: <b id="dev-code">{dev}</b></p>}
      <label>{t('code')} <input id="code" inputMode="numeric" value={code} onInput={(e) => setCode(e.currentTarget.value)} /></label>
      <button type="submit" id="login">{t('signIn')}</button>
      {err && <p role="alert" class="error">{err}</p>}
    </form>
  );
}

// A shop as the lists show it.
graphql(`fragment ShopItem on Shop { id name area avgPrice score comments images { url } }`);

function Shops() {
  const [types, setTypes] = useState([]);
  const [type, setType] = useState('');
  const [name, setName] = useState('');
  const [shops, setShops] = useState([]);
  const [next, setNext] = useState(null);
  // near is the point shops are listed around (null: not by distance).
  const [near, setNear] = useState(null);
  useEffect(() => { gql(graphql(`query ShopTypes { shopTypes { id name icon } }`)).then((d) => setTypes(d.shopTypes)); }, []);
  const me = !!session.access;
  const load = async (after) => {
    let page;
    if (near) {
      // A logged-in user's list has the hearts (an anonymous one stays cacheable).
      const d = await gql(me ? graphql(`query NearbyMine($t: ID!, $lon: Float!, $lat: Float!, $a: String) {
        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {
          edges { distanceMeters node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }`)
        : graphql(`query Nearby($t: ID!, $lon: Float!, $lat: Float!, $a: String) {
        nearbyShops(typeId: $t, longitude: $lon, latitude: $lat, first: 10, after: $a) {
          edges { distanceMeters node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }`),
      { t: type || types[0]?.id || '1', lon: near.lon, lat: near.lat, a: after });
      page = d.nearbyShops;
    } else {
      const d = await gql(me ? graphql(`query ShopsMine($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {
        edges { node { ...ShopItem favoritedByMe favoriteCount } } pageInfo { hasNextPage endCursor } } }`)
        : graphql(`query Shops($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {
        edges { node { ...ShopItem } } pageInfo { hasNextPage endCursor } } }`),
      { t: type || null, n: name || null, a: after });
      page = d.shops;
    }
    const list = page.edges.map((e) => ({ ...e.node, distance: e.distanceMeters }));
    setShops((old) => (after ? [...old, ...list] : list));
    setNext(page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null);
  };
  useEffect(() => { load(null); }, [type, name, near, types.length > 0]);
  // Near me: the browser's position, or (refused or unavailable) the center of the demo city.
  const nearMe = () => locate(setNear);
  return (
    <section>
      <div class="types" role="tablist">
        <button role="tab" aria-selected={type === ''} onClick={() => setType('')}>{t('allTypes')}</button>
        {types.map((ty) => <button role="tab" aria-selected={type === ty.id} onClick={() => setType(ty.id)}>
          {ty.icon && <img src={ty.icon} alt="" class="type-icon" />}{ty.name}</button>)}
      </div>
      <div class="row">
        <label class="search">{t('search')} <input type="search" value={name} disabled={!!near} onChange={(e) => setName(e.currentTarget.value)} /></label>
        <button id="near-me" aria-pressed={!!near} onClick={() => (near ? setNear(null) : nearMe())}>{t('nearMe')}</button>
      </div>
      {near && <p class="meta">{t('around')} {near.lat.toFixed(4)}, {near.lon.toFixed(4)}{near.guessed ? ' (' + t('guessed') + ')' : ''}</p>}
      <ul class="shops">
        {shops.map((s) => <ShopCard s={s} />)}
      </ul>
      {next && <button onClick={() => load(next)}>{t('more')}</button>}
    </section>
  );
}

function Shop({ id }) {
  const [shop, setShop] = useState(null);
  useEffect(() => {
    gql(graphql(`query Shop($id: ID!) { shop(id: $id) { id name address avgPrice score comments images { url width height } openHours type { name }
      favoritedByMe favoriteCount
      vouchers { id title payValue actualValue kind stock beginTime endTime favoritedByMe remindedByMe reminderCount }
      blogs(first: 5) { edges { node { id title rating likedCount author { nickName } } } } } }`), { id }).then((d) => setShop(d.shop));
  }, [id]);
  if (!shop) return <p>…</p>;
  return (
    <section>
      <div class="title-row"><h1>{shop.name}</h1><Heart kind="shop" id={shop.id} on={shop.favoritedByMe} count={shop.favoriteCount} /></div>
      {shop.images.length > 0 && <div class="photos">{shop.images.map((p) => <Photo img={p} class="shop-photo" fallback={[240, 160]} />)}</div>}
      <p>{shop.type?.name} · {shop.address} · {t('perPerson')} ¥{money(shop.avgPrice)} · {t('score')} {(shop.score / 10).toFixed(1)}</p>
      {shop.openHours && <p class="meta">{t('openHours')} {shop.openHours}</p>}
      <h2>{t('vouchers')}</h2>
      <ul class="vouchers">{shop.vouchers.map((v) => <Voucher v={v} />)}</ul>
      <h2>{t('notes')}</h2>
      <ul>{shop.blogs.edges.map(({ node: b }) => (
        <li>{b.title} — {b.author.nickName}{b.rating ? ' ' + '★'.repeat(b.rating) : ''} ♥{b.likedCount}</li>))}</ul>
    </section>
  );
}

function Voucher({ v }) {
  const now = useNow();
  const [order, setOrder] = useState(null);
  const [msg, setMsg] = useState('');
  // soldOut: a claim was answered SOLD_OUT, so the waitlist is offered; place: the caller's place in it.
  const [soldOut, setSoldOut] = useState(false);
  const [place, setPlace] = useState(null);
  // The sale's reminder count, for the shop's merchant (null for everyone else).
  const [reminders, setReminders] = useState(v.reminderCount);
  const begin = v.beginTime ? Date.parse(v.beginTime) : 0;
  const end = v.endTime ? Date.parse(v.endTime) : Infinity;
  const flash = v.kind === 'FLASH_SALE';
  // The sale's remaining units, pushed by the server as they go (one read per sale and
  // second on the server, however many pages show it).
  const [live, setLive] = useState(null);
  useEffect(() => (flash
    ? subscribePublic(graphql(`subscription SaleProgress($v: ID!) { saleProgress(voucherId: $v) { remaining soldOut phase } }`), { v: v.id },
      (d) => setLive(d.saleProgress))
    : undefined), [v.id]);
  const follow = (orderId) => subscribe(graphql(`subscription OrderStatus($o: ID!) { orderStatus(orderId: $o) { orderId status reason } }`), { o: orderId },
    async (d) => {
      const ev = d.orderStatus;
      let code = null;
      if (ev.status === 'PAID') code = (await gql(graphql(`query Order($o: ID!) { order(id: $o) { redemptionCode } }`), { o: orderId })).order?.redemptionCode;
      setOrder((o) => ({ ...o, status: ev.status, code: code ?? o?.code }));
    }, (e) => setMsg(e.message));
  const claim = async () => {
    setMsg('');
    if (!session.access) { setMsg(t('loginFirst')); return; }
    try {
      const d = await gql(graphql(`mutation ClaimVoucher($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }`), { v: v.id });
      setOrder({ id: d.claimVoucher.orderId, status: d.claimVoucher.status });
      follow(d.claimVoucher.orderId);
    } catch (x) { setMsg(answer(x)); setSoldOut(x.code === 'SOLD_OUT'); }
  };
  const join = async () => {
    setMsg('');
    try {
      const d = await gql(graphql(`mutation JoinWaitlist($v: ID!) { joinWaitlist(voucherId: $v) { id status position } }`), { v: v.id });
      setPlace(d.joinWaitlist);
    } catch (x) { setMsg(answer(x)); }
  };
  const act = async (mutation) => {
    try { await gql(mutation, { o: order.id }); } catch (x) { setMsg(t(x.code) === x.code ? x.message : t(x.code)); }
  };
  return (
    <li class="voucher">
      <b>{v.title}</b> ¥{money(v.payValue)} <s>¥{money(v.actualValue)}</s>
      {flash && <span class="stock" data-live={live ? 'true' : 'false'} data-remaining={live ? live.remaining : v.stock}>
        {' · '}{live?.soldOut ? t('SOLD_OUT') : <>{t('left')} {live ? live.remaining : v.stock}</>}</span>}
      {flash && (now < begin
        ? <span class="countdown"> · {t('startsIn')} {countdown(begin - now)}</span>
        : <span> · {now > end ? t('ended') : t('started')}</span>)}
      {flash && reminders != null && <span class="reminder-count" data-count={reminders}> · {reminders} {t('remindersSet')}</span>}
      {flash && !order && !place && <button class="claim" disabled={now < begin || now > end} onClick={claim}>{t('claim')}</button>}
      <span class="voucher-actions">
        <Heart kind="voucher" id={v.id} on={v.favoritedByMe} />
        {flash && now < begin && <Remind id={v.id} on={v.remindedByMe} onCount={setReminders} />}
      </span>
      {order && (
        <div class="order" aria-live="polite">
          {t('status')}: <b class="order-status" data-status={order.status}>{t(order.status)}</b>
          {order.status === 'CREATED' && <>
            <button class="pay" onClick={() => act(graphql(`mutation PayOrder($o: ID!) { payOrder(orderId: $o) { id status } }`))}>{t('pay')}</button>
            <button onClick={() => act(graphql(`mutation CancelOrder($o: ID!) { cancelOrder(orderId: $o) { status } }`))}>{t('cancel')}</button>
          </>}
          {order.code && <p>{t('code2')}: <b class="redemption-code">{order.code}</b></p>}
        </div>
      )}
      {msg && <p role="alert" class="error claim-answer">{msg}</p>}
      {flash && !order && (place
        ? <p class="waitlist-place" aria-live="polite">{t('joined')} · {place.position != null ? <>{t('inLineShort')} <b class="position">{place.position}</b> · </> : null}
          <a href="#/waitlist">{t('waitlist')}</a></p>
        : soldOut && now <= end && <button class="join-waitlist" onClick={join}>{t('joinWaitlist')}</button>)}
    </li>
  );
}

function Orders() {
  const [status, setStatus] = useState('');
  const [orders, setOrders] = useState([]);
  useEffect(() => {
    gql(graphql(`query MyOrders($s: [OrderStatus!]) { myOrders(status: $s, first: 20) { edges { node { id status amount voucher { title } shop { name } redemptionCode } } } }`),
      { s: status ? [status] : null }).then((d) => setOrders(d.myOrders.edges.map((e) => e.node)));
  }, [status]);
  return (
    <section>
      <h1>{t('orders')}</h1>
      <div class="types">{['', 'PENDING', 'CREATED', 'PAID', 'USED', 'CANCELED'].map((s) => (
        <button aria-selected={status === s} onClick={() => setStatus(s)}>{s ? t(s) : t('allTypes')}</button>))}</div>
      {orders.length === 0 ? <p>{t('none')}</p> : (
        <ul>{orders.map((o) => (
          <li>{o.voucher.title} · {o.shop.name} · ¥{money(o.amount)} · <b>{t(o.status)}</b>{o.redemptionCode && <> · {o.redemptionCode}</>}</li>))}</ul>)}
    </section>
  );
}

// The merchant's board: create a flash sale for a shop one runs, then watch it live.
function Board({ voucherId }) {
  return voucherId ? <LiveBoard voucherId={voucherId} /> : <><NewSale /><MySales /></>;
}

// The flash sales of the shops the merchant runs, each with how many people asked to be
// reminded of it, and a link to its live board.
function MySales() {
  const [shops, setShops] = useState(null);
  useEffect(() => {
    gql(graphql(`query MySales { myShops { id name vouchers { id title kind stock beginTime endTime reminderCount } } }`))
      .then((d) => setShops(d.myShops)).catch(() => setShops([]));
  }, []);
  const now = useNow();
  const sales = (shops || []).flatMap((s) => s.vouchers.filter((v) => v.kind === 'FLASH_SALE').map((v) => ({ ...v, shop: s })));
  if (sales.length === 0) return null;
  return (
    <section class="my-sales">
      <h2>{t('mySales')}</h2>
      <ul>{sales.map((v) => {
        const begin = Date.parse(v.beginTime);
        return (
          <li class="my-sale" data-voucher={v.id}><a href={`#/board/${v.id}`} class="shop-link">
            <b>{v.title}</b>
            <span>{v.shop.name} · {t('left')} {v.stock} · {now < begin ? <>{t('startsIn')} {timeLeft(begin - now)}</> : now > Date.parse(v.endTime) ? t('ended') : t('started')}
              {' · '}<span class="nowrap"><b class="reminder-count" data-count={v.reminderCount ?? 0}>{v.reminderCount ?? 0}</b> {t('remindersSet')}</span></span></a></li>);
      })}</ul>
    </section>
  );
}

function NewSale() {
  const [err, setErr] = useState('');
  const create = async (e) => {
    e.preventDefault(); setErr('');
    const f = new FormData(e.currentTarget);
    const begin = new Date(Date.now() + Number(f.get('startsIn')) * 1000);
    try {
      const d = await gql(graphql(`mutation CreateFlashSale($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`), { in: {
        shopId: f.get('shop'), title: f.get('title'), payValue: Math.round(Number(f.get('price')) * 100),
        actualValue: Math.round(Number(f.get('worth')) * 100), stock: Number(f.get('stock')), buckets: Number(f.get('buckets')),
        beginTime: begin.toISOString(), endTime: new Date(begin.getTime() + 3600e3).toISOString() } });
      location.hash = '#/board/' + d.createFlashSale.id;
    } catch (x) { setErr(x.message); }
  };
  return (
    <form class="card" onSubmit={create}>
      <h1>{t('newSale')}</h1>
      <label>{t('shopId')} <input name="shop" id="sale-shop" required inputMode="numeric" /></label>
      <label>{t('title')} <input name="title" id="sale-title" required /></label>
      <label>{t('price')} <input name="price" id="sale-price" type="number" step="0.01" min="0" value="9.9" /></label>
      <label>{t('worth')} <input name="worth" type="number" step="0.01" min="0" value="20" /></label>
      <label>{t('stock')} <input name="stock" id="sale-stock" type="number" min="1" value="100" /></label>
      <label>{t('buckets')} <input name="buckets" id="sale-buckets" type="number" min="1" value="1" /></label>
      <label>{t('startsInSeconds')} <input name="startsIn" type="number" min="0" value="0" /></label>
      <button type="submit" id="create-sale">{t('create')}</button>
      {err && <p role="alert" class="error">{err}</p>}
    </form>
  );
}

// The board's chart: its plot area in SVG units, and the time it shows.
const C = { left: 34, top: 8, w: 300, h: 70, bottom: 18 };
const chartWindow = 30_000;
// niceTop rounds a chart's top up to 1, 2 or 5 times a power of ten.
const niceTop = (v) => {
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((n) => n >= v);
};

function LiveBoard({ voucherId }) {
  const [err, setErr] = useState('');
  const [stats, setStats] = useState(null);
  const [series, setSeries] = useState([]);
  useEffect(() => subscribe(graphql(`subscription SaleStats($v: ID!) { saleStats(voucherId: $v) {
      remaining accepted pending created paid used canceled failed claimsPerSecond at } }`), { v: voucherId },
  (d) => {
    setStats(d.saleStats);
    setSeries((s) => [...s.filter((p) => Date.parse(d.saleStats.at) - p.at <= chartWindow), { at: Date.parse(d.saleStats.at), rate: d.saleStats.claimsPerSecond }]);
  }, (e) => setErr(e.message)), [voucherId]);
  // Orders per second over the last chartWindow, the newest push at the right edge.
  const top = niceTop(Math.max(1, ...series.map((p) => p.rate)));
  const last = series.length ? series[series.length - 1].at : 0;
  const x = (at) => C.left + C.w * (1 - (last - at) / chartWindow);
  const y = (rate) => C.top + C.h - (rate / top) * C.h;
  const points = series.map((p) => `${x(p.at).toFixed(1)},${y(p.rate).toFixed(1)}`).join(' ');
  return (
    <section>
      <h1>{t('board')} #{voucherId}</h1>
      {err && <p role="alert" class="error">{err}</p>}
      {stats && (
        <dl class="stats">
          {['remaining', 'accepted', 'pending', 'created', 'paid', 'used', 'canceled'].map((k) => (
            <div><dt>{t('s_' + k)}</dt><dd id={'stat-' + k}>{stats[k]}</dd></div>))}
          <div><dt>{t('s_rate')}</dt><dd id="stat-rate">{stats.claimsPerSecond.toFixed(1)}</dd></div>
        </dl>
      )}
      <svg viewBox={`0 0 ${C.left + C.w + 8} ${C.top + C.h + C.bottom}`} class="chart" role="img" aria-label={t('s_rate')}>
        {[0, 0.5, 1].map((f) => (
          <g class="grid">
            <line x1={C.left} y1={y(top * f)} x2={C.left + C.w} y2={y(top * f)} />
            <text x={C.left - 4} y={y(top * f) + 3} text-anchor="end" class="tick y-tick">{+(top * f).toFixed(1)}</text>
          </g>))}
        <line class="axis" x1={C.left} y1={C.top} x2={C.left} y2={C.top + C.h} />
        <line class="axis" x1={C.left} y1={C.top + C.h} x2={C.left + C.w} y2={C.top + C.h} />
        <text x={C.left} y={C.top + C.h + 13} class="tick x-tick">−{chartWindow / 1000}s</text>
        <text x={C.left + C.w / 2} y={C.top + C.h + 13} text-anchor="middle" class="tick axis-label">{t('s_rate')}</text>
        <text x={C.left + C.w} y={C.top + C.h + 13} text-anchor="end" class="tick x-tick">{t('now')}</text>
        <polyline fill="none" stroke="#c81d25" stroke-width="2" points={points} />
      </svg>
    </section>
  );
}

const NoteItem = graphql(`fragment NoteItem on Blog { id title rating likedCount commentCount author { nickName } shop { name } }`);
const FeedPage = graphql(`query FeedPage($a: String) { page: feed(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }`);
const HotPage = graphql(`query HotPage($a: String) { page: hotBlogs(first: 10, after: $a) { edges { node { ...NoteItem } } pageInfo { hasNextPage endCursor } } }`);
const Follow = graphql(`mutation Follow($u: ID!) { follow(userId: $u) }`);
// Liking and unliking are separate requests, so a repeated click or request cannot undo itself.
const LikeBlog = graphql(`mutation LikeBlog($id: ID!) { likeBlog(id: $id) { id } }`);
const UnlikeBlog = graphql(`mutation UnlikeBlog($id: ID!) { unlikeBlog(id: $id) { id } }`);
const Unfollow = graphql(`mutation Unfollow($u: ID!) { unfollow(userId: $u) }`);

// Notes: the hot ones, or the feed of the people one follows, loaded as one scrolls.
function Notes() {
  const [tab, setTab] = useState(session.access ? 'feed' : 'hot');
  const [notes, setNotes] = useState([]);
  const [next, setNext] = useState(undefined);
  const [sentinel, setSentinel] = useState(null);
  const load = async (after) => {
    const d = await gql(tab === 'feed' ? FeedPage : HotPage, { a: after || null });
    setNotes((old) => [...(after ? old : []), ...d.page.edges.map((e) => e.node)]);
    setNext(d.page.pageInfo.hasNextPage ? d.page.pageInfo.endCursor : null);
  };
  useEffect(() => { setNotes([]); load(null); }, [tab]);
  useEffect(() => {
    if (!sentinel || !next) return undefined;
    const io = new IntersectionObserver((es) => { if (es[0].isIntersecting) load(next); });
    io.observe(sentinel);
    return () => io.disconnect();
  }, [sentinel, next]);
  return (
    <section>
      <div class="types" role="tablist">
        {session.access && <button role="tab" aria-selected={tab === 'feed'} onClick={() => setTab('feed')}>{t('feed')}</button>}
        <button role="tab" aria-selected={tab === 'hot'} onClick={() => setTab('hot')}>{t('hot')}</button>
        {session.access && <a class="button" href="#/write" id="write-note">{t('write')}</a>}
      </div>
      <ul class="notes">{notes.map((n) => (
        <li><a href={`#/note/${n.id}`} class="shop-link"><b>{n.title}</b>
          <span>{n.author.nickName} · {n.shop?.name}{n.rating ? ' · ' + '★'.repeat(n.rating) : ''} · ♥{n.likedCount} · 💬{n.commentCount}</span></a></li>))}</ul>
      {next && <div ref={setSentinel} class="sentinel">…</div>}
    </section>
  );
}

function Note({ id }) {
  const [note, setNote] = useState(null);
  const [likers, setLikers] = useState([]);
  const [text, setText] = useState('');
  const [err, setErr] = useState('');
  const load = () => gql(graphql(`query Blog($id: ID!) { blog(id: $id) { id title content images { url width height } rating likedCount likedByMe
      author { id nickName icon isFollowedByMe } shop { id name }
      comments(first: 20) { edges { node { id content author { nickName } replies(first: 5) { edges { node { id content author { nickName } replyToUser { nickName } } } } } } } }
      blogLikers(blogId: $id) { nickName } }`), { id }).then((d) => { setNote(d.blog); setLikers(d.blogLikers); });
  useEffect(() => { load(); }, [id]);
  const run = async (q, v) => { setErr(''); try { await gql(q, v); await load(); } catch (x) { setErr(t(x.code) === x.code ? x.message : t(x.code)); } };
  if (!note) return <p>…</p>;
  const me = session.user;
  return (
    <article>
      <h1>{note.title}</h1>
      <p class="meta">{note.author.icon && <img src={note.author.icon} alt="" class="avatar" width="24" height="24" />}{note.author.nickName} · <a href={`#/shop/${note.shop?.id}`}>{note.shop?.name}</a>{note.rating ? ' · ' + '★'.repeat(note.rating) : ''}</p>
      {note.images.map((img) => <Photo img={img} class="note-image" />)}
      <p class="content">{note.content}</p>
      <p>
        <button id="like" aria-pressed={note.likedByMe} onClick={() => run(note.likedByMe ? UnlikeBlog : LikeBlog, { id })}>♥ {note.likedCount}</button>
        {me && me.id !== note.author.id && (
          <button id="follow" onClick={() => run(note.author.isFollowedByMe ? Unfollow : Follow, { u: note.author.id })}>
            {note.author.isFollowedByMe ? t('unfollow') : t('follow')}</button>)}
      </p>
      <p class="meta">{likers.map((u) => u.nickName).join('、')}</p>
      <h2>{t('comments')}</h2>
      <ul class="comments">{note.comments.edges.map(({ node: c }) => (
        <li><b>{c.author.nickName}</b>: {c.content}
          <ul>{c.replies.edges.map(({ node: r }) => <li><b>{r.author.nickName}</b> → {r.replyToUser?.nickName}: {r.content}</li>)}</ul></li>))}</ul>
      {me && (
        <form onSubmit={(e) => { e.preventDefault(); run(graphql(`mutation CreateComment($b: ID!, $c: String!) { createComment(blogId: $b, content: $c) { id } }`), { b: id, c: text }).then(() => setText('')); }}>
          <label>{t('comment')} <input id="comment" value={text} onInput={(e) => setText(e.currentTarget.value)} maxLength={1000} /></label>
          <button type="submit">{t('send')}</button>
        </form>)}
      {err && <p role="alert" class="error">{err}</p>}
    </article>
  );
}

const UploadImage = graphql(`mutation UploadImage($f: Upload!) { uploadImage(file: $f) { url } }`);

// Write a note, with a photo uploaded first (GraphQL multipart request).
function Write() {
  const [err, setErr] = useState('');
  const submit = async (e) => {
    e.preventDefault(); setErr('');
    const f = new FormData(e.currentTarget);
    try {
      const images = [];
      const photo = f.get('photo');
      if (photo && photo.size > 0) {
        const body = new FormData();
        body.append('operations', JSON.stringify({ query: String(UploadImage), variables: { f: null } })); // typed in src/gql
        body.append('map', JSON.stringify({ 0: ['variables.f'] }));
        body.append('0', photo, photo.name);
        // A multipart request is one a form on another site could send; the server takes it
        // only with a header such a form cannot set.
        const r = await (await fetch('/graphql', { method: 'POST', headers: { Authorization: 'Bearer ' + session.access, 'GraphQL-Require-Preflight': '1' }, body })).json();
        if (r.errors?.length) throw new Error(r.errors[0].message);
        images.push(r.data.uploadImage.url);
      }
      const d = await gql(graphql(`mutation CreateBlog($in: CreateBlogInput!) { createBlog(input: $in) { id } }`), { in: {
        shopId: f.get('shop'), title: f.get('title'), content: f.get('content'), images, rating: Number(f.get('rating')) || null } });
      location.hash = '#/note/' + d.createBlog.id;
    } catch (x) { setErr(x.message); }
  };
  return (
    <form class="card" onSubmit={submit}>
      <h1>{t('write')}</h1>
      <label>{t('shopId')} <input name="shop" id="note-shop" required inputMode="numeric" /></label>
      <label>{t('title')} <input name="title" id="note-title" required maxLength={80} /></label>
      <label>{t('content')} <textarea name="content" id="note-content" required maxLength={5000} rows={5} /></label>
      <label>{t('rating')} <select name="rating" id="note-rating">{[0, 5, 4, 3, 2, 1].map((n) => <option value={n}>{n ? '★'.repeat(n) : '—'}</option>)}</select></label>
      <label>{t('photo')} <input type="file" name="photo" id="note-photo" accept="image/jpeg,image/png,image/webp,image/gif" /></label>
      <button type="submit" id="publish">{t('publish')}</button>
      {err && <p role="alert" class="error">{err}</p>}
    </form>
  );
}

// The month's sign-ins as a calendar, and today's sign-in.
function SignIn() {
  const [status, setStatus] = useState(null);
  const load = () => gql(graphql(`query SignInStatus { signInStatus { month signedDays consecutiveDays } }`)).then((d) => setStatus(d.signInStatus));
  useEffect(() => { load(); }, []);
  if (!status) return <p>…</p>;
  const [y, m] = status.month.split('-').map(Number);
  const days = new Date(y, m, 0).getDate();
  const lead = (new Date(y, m - 1, 1).getDay() + 6) % 7; // Monday first
  const signed = new Set(status.signedDays);
  return (
    <section>
      <h1>{t('signInDaily')} {status.month}</h1>
      <p>{t('streak')}: <b id="streak">{status.consecutiveDays}</b></p>
      <button id="sign-in" onClick={() => gql(graphql(`mutation SignIn{ signIn { month } }`)).then(load)}>{t('signInToday')}</button>
      <div class="calendar" role="grid">
        {Array.from({ length: lead }, () => <span />)}
        {Array.from({ length: days }, (_, i) => <span class={signed.has(i + 1) ? 'signed' : ''} aria-label={signed.has(i + 1) ? 'signed' : ''}>{i + 1}</span>)}
      </div>
    </section>
  );
}

setLang(lang);
render(<App />, document.getElementById('app'));

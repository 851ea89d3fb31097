import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { gql, session, subscribe } from './api.js';
import { lang, setLang, t } from './i18n.js';
import './style.css';

// Hash routes: #/ shops, #/shop/<id>, #/login, #/orders.
function useRoute() {
  const [hash, setHash] = useState(location.hash.slice(2));
  useEffect(() => {
    const on = () => setHash(location.hash.slice(2));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash.split('/');
}

const money = (cents) => (cents / 100).toFixed(cents % 100 ? 2 : 0);

function App() {
  const [, rerender] = useState(0);
  const [page, id] = useRoute();
  const user = session.user;
  return (
    <>
      <header>
        <a href="#/" class="brand">Dealspot</a>
        <nav>
          <a href="#/">{t('shops')}</a>
          {user && <a href="#/orders">{t('orders')}</a>}
          {user && user.role !== 'USER' && <a href="#/board">{t('board')}</a>}
          {user
            ? <button onClick={() => { gql('mutation { logout }').catch(() => {}); session.clear(); location.hash = '#/'; rerender((n) => n + 1); }}>{t('logout')}</button>
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
      const d = await gql('mutation($p: String!) { sendLoginCode(phone: $p) { sent devCode } }', { p: phone });
      if (d.sendLoginCode.devCode) { setDev(d.sendLoginCode.devCode); setCode(d.sendLoginCode.devCode); }
    } catch (x) { setErr(x.message); }
  };
  const login = async (e) => {
    e.preventDefault(); setErr('');
    try {
      const d = await gql('mutation($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken refreshToken user { id nickName role } } }', { p: phone, c: code });
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

function Shops() {
  const [types, setTypes] = useState([]);
  const [type, setType] = useState('');
  const [name, setName] = useState('');
  const [shops, setShops] = useState([]);
  const [next, setNext] = useState(null);
  useEffect(() => { gql('{ shopTypes { id name } }').then((d) => setTypes(d.shopTypes)); }, []);
  const load = async (after) => {
    const d = await gql(`query($t: ID, $n: String, $a: String) { shops(typeId: $t, name: $n, first: 10, after: $a) {
      edges { node { id name area avgPrice score comments } } pageInfo { hasNextPage endCursor } } }`,
    { t: type || null, n: name || null, a: after });
    const list = d.shops.edges.map((e) => e.node);
    setShops((old) => (after ? [...old, ...list] : list));
    setNext(d.shops.pageInfo.hasNextPage ? d.shops.pageInfo.endCursor : null);
  };
  useEffect(() => { load(null); }, [type, name]);
  return (
    <section>
      <div class="types" role="tablist">
        <button role="tab" aria-selected={type === ''} onClick={() => setType('')}>{t('allTypes')}</button>
        {types.map((ty) => <button role="tab" aria-selected={type === ty.id} onClick={() => setType(ty.id)}>{ty.name}</button>)}
      </div>
      <label class="search">{t('search')} <input type="search" value={name} onChange={(e) => setName(e.currentTarget.value)} /></label>
      <ul class="shops">
        {shops.map((s) => (
          <li><a href={`#/shop/${s.id}`} class="shop-link"><b>{s.name}</b>
            <span>{s.area} · {t('perPerson')} ¥{money(s.avgPrice)} · {t('score')} {(s.score / 10).toFixed(1)} · {s.comments} {t('reviews')}</span></a></li>
        ))}
      </ul>
      {next && <button onClick={() => load(next)}>{t('more')}</button>}
    </section>
  );
}

function Shop({ id }) {
  const [shop, setShop] = useState(null);
  useEffect(() => {
    gql(`query($id: ID!) { shop(id: $id) { id name address avgPrice score comments type { name }
      vouchers { id title payValue actualValue kind stock beginTime endTime }
      blogs(first: 5) { edges { node { id title rating likedCount author { nickName } } } } } }`, { id }).then((d) => setShop(d.shop));
  }, [id]);
  if (!shop) return <p>…</p>;
  return (
    <section>
      <h1>{shop.name}</h1>
      <p>{shop.type?.name} · {shop.address} · {t('perPerson')} ¥{money(shop.avgPrice)} · {t('score')} {(shop.score / 10).toFixed(1)}</p>
      <h2>{t('vouchers')}</h2>
      <ul class="vouchers">{shop.vouchers.map((v) => <Voucher v={v} />)}</ul>
      <h2>{t('notes')}</h2>
      <ul>{shop.blogs.edges.map(({ node: b }) => (
        <li>{b.title} — {b.author.nickName}{b.rating ? ' ' + '★'.repeat(b.rating) : ''} ♥{b.likedCount}</li>))}</ul>
    </section>
  );
}

function useNow() {
  const [now, setNow] = useState(Date.now());
  useEffect(() => { const i = setInterval(() => setNow(Date.now()), 1000); return () => clearInterval(i); }, []);
  return now;
}

const countdown = (ms) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

function Voucher({ v }) {
  const now = useNow();
  const [order, setOrder] = useState(null);
  const [msg, setMsg] = useState('');
  const begin = v.beginTime ? Date.parse(v.beginTime) : 0;
  const end = v.endTime ? Date.parse(v.endTime) : Infinity;
  const flash = v.kind === 'FLASH_SALE';
  const follow = (orderId) => subscribe('subscription($o: ID!) { orderStatus(orderId: $o) { orderId status reason } }', { o: orderId },
    async (d) => {
      const ev = d.orderStatus;
      let code = null;
      if (ev.status === 'PAID') code = (await gql('query($o: ID!) { order(id: $o) { redemptionCode } }', { o: orderId })).order?.redemptionCode;
      setOrder((o) => ({ ...o, status: ev.status, code: code ?? o?.code }));
    }, (e) => setMsg(e.message));
  const claim = async () => {
    setMsg('');
    if (!session.access) { setMsg(t('loginFirst')); return; }
    try {
      const d = await gql('mutation($v: ID!) { claimVoucher(voucherId: $v) { orderId status } }', { v: v.id });
      setOrder({ id: d.claimVoucher.orderId, status: d.claimVoucher.status });
      follow(d.claimVoucher.orderId);
    } catch (x) { setMsg(t(x.code) === x.code ? x.message : t(x.code)); }
  };
  const act = async (mutation) => {
    try { await gql(mutation, { o: order.id }); } catch (x) { setMsg(t(x.code) === x.code ? x.message : t(x.code)); }
  };
  return (
    <li class="voucher">
      <b>{v.title}</b> ¥{money(v.payValue)} <s>¥{money(v.actualValue)}</s>
      {flash && <span class="stock"> · {t('left')} {v.stock}</span>}
      {flash && (now < begin
        ? <span class="countdown"> · {t('startsIn')} {countdown(begin - now)}</span>
        : <span> · {now > end ? t('ended') : t('started')}</span>)}
      {flash && !order && <button class="claim" disabled={now < begin || now > end} onClick={claim}>{t('claim')}</button>}
      {order && (
        <div class="order" aria-live="polite">
          {t('status')}: <b class="order-status" data-status={order.status}>{t(order.status)}</b>
          {order.status === 'CREATED' && <>
            <button class="pay" onClick={() => act('mutation($o: ID!) { payOrder(orderId: $o) { id status } }')}>{t('pay')}</button>
            <button onClick={() => act('mutation($o: ID!) { cancelOrder(orderId: $o) { status } }')}>{t('cancel')}</button>
          </>}
          {order.code && <p>{t('code2')}: <b class="redemption-code">{order.code}</b></p>}
        </div>
      )}
      {msg && <p role="alert" class="error claim-answer">{msg}</p>}
    </li>
  );
}

function Orders() {
  const [status, setStatus] = useState('');
  const [orders, setOrders] = useState([]);
  useEffect(() => {
    gql(`query($s: [OrderStatus!]) { myOrders(status: $s, first: 20) { edges { node { id status amount voucher { title } shop { name } redemptionCode } } } }`,
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
  return voucherId ? <LiveBoard voucherId={voucherId} /> : <NewSale />;
}

function NewSale() {
  const [err, setErr] = useState('');
  const create = async (e) => {
    e.preventDefault(); setErr('');
    const f = new FormData(e.currentTarget);
    const begin = new Date(Date.now() + Number(f.get('startsIn')) * 1000);
    try {
      const d = await gql(`mutation($in: CreateFlashSaleInput!) { createFlashSale(input: $in) { id } }`, { in: {
        shopId: f.get('shop'), title: f.get('title'), payValue: Math.round(Number(f.get('price')) * 100),
        actualValue: Math.round(Number(f.get('worth')) * 100), stock: Number(f.get('stock')),
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
      <label>{t('startsInSeconds')} <input name="startsIn" type="number" min="0" value="0" /></label>
      <button type="submit" id="create-sale">{t('create')}</button>
      {err && <p role="alert" class="error">{err}</p>}
    </form>
  );
}

function LiveBoard({ voucherId }) {
  const [err, setErr] = useState('');
  const [stats, setStats] = useState(null);
  const [series, setSeries] = useState([]);
  useEffect(() => subscribe(`subscription($v: ID!) { saleStats(voucherId: $v) {
      remaining accepted pending created paid used canceled failed claimsPerSecond at } }`, { v: voucherId },
  (d) => { setStats(d.saleStats); setSeries((s) => [...s.slice(-59), d.saleStats.claimsPerSecond]); }, (e) => setErr(e.message)), [voucherId]);
  const top = Math.max(1, ...series);
  const points = series.map((v, i) => `${(i / 59) * 300},${60 - (v / top) * 56}`).join(' ');
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
      <svg viewBox="0 0 300 60" class="chart" role="img" aria-label={t('s_rate')}>
        <polyline fill="none" stroke="#c81d25" stroke-width="2" points={points} />
      </svg>
    </section>
  );
}

setLang(lang);
render(<App />, document.getElementById('app'));

// The inbox: the header's bell with the unread count, kept live by the
// notificationAdded subscription, and the inbox page with its settings.
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql, session, subscribe } from './api.js';
import { graphql } from './gql';
import { lang, t } from './i18n.js';
import { BellIcon, More, ago } from './ui.jsx';

const UnreadCount = graphql(`query UnreadCount { unreadNotificationCount }`);
const NotificationAdded = graphql(`subscription NotificationAdded { notificationAdded { id } }`);
const NotificationItem = graphql(`fragment NotificationItem on Notification { id kind createdAt updatedAt read actorCount text
  actor { id nickName icon } blog { id title } order { id } voucher { id title beginTime shop { id name } } }`);
const Notifications = graphql(`query Notifications($a: String, $unread: Boolean) {
  notifications(first: 20, after: $a, unreadOnly: $unread) { edges { node { ...NotificationItem } } pageInfo { hasNextPage endCursor } } }`);
const MarkRead = graphql(`mutation MarkNotificationsRead($upTo: ID) { markNotificationsRead(upTo: $upTo) }`);
const Settings = graphql(`query NotificationSettings { notificationSettings { likes comments follows orders followedNotes shopSales } }`);
const UpdateSettings = graphql(`mutation UpdateNotificationSettings($in: NotificationSettingsInput!) {
  updateNotificationSettings(input: $in) { likes comments follows orders followedNotes shopSales } }`);

// The inbox tells the bell to count again (after marking read) with this event.
const recount = () => dispatchEvent(new Event('dealspot:unread'));

// onNotification calls fn on each of the user's new (or regrouped) notifications, and
// again whenever the subscription ended (the session was refreshed, the socket dropped,
// the token had run out), when pushes may have been missed; then it subscribes again,
// waiting longer after each failure in a row. fn's read refreshes a session that ran out.
export function onNotification(fn) {
  let stop = () => {};
  let closed = false;
  let failures = 0;
  let since = 0;
  const again = () => {
    if (closed) return;
    if (Date.now() - since > 30000) failures = 0; // it held a while: not a failure in a row
    setTimeout(() => { if (!closed) { fn(); start(); } }, Math.min(30000, 500 * 2 ** failures++));
  };
  const start = () => { since = Date.now(); stop = subscribe(NotificationAdded, {}, () => { failures = 0; fn(); }, again, again); };
  start();
  return () => { closed = true; stop(); };
}

// Bell links to the inbox and shows how many notifications are unread, counted again
// whenever one is pushed.
export function Bell({ user }) {
  const [count, setCount] = useState(0);
  useEffect(() => {
    let stale = false;
    const load = () => gql(UnreadCount).then((d) => { if (!stale) setCount(d.unreadNotificationCount); }).catch(() => {});
    load();
    const stop = onNotification(load);
    addEventListener('dealspot:unread', load);
    return () => { stale = true; stop(); removeEventListener('dealspot:unread', load); };
  }, [user.id]);
  return (
    <a href="#/inbox" id="bell" class="bell" data-unread={count} aria-label={`${t('inbox')} (${count} ${t('unread')})`}>
      <BellIcon />
      {count > 0 && <span class="badge" id="unread-badge">{count > 99 ? '99+' : count}</span>}
    </a>
  );
}

// The sign each kind of notification is shown with (characters common fonts have); a
// kind the app does not know yet gets a dot.
const icons = { BLOG_LIKED: '♥', BLOG_COMMENTED: '✉', COMMENT_REPLIED: '↩', FOLLOWED: '☺', ORDER_PAID: '✓', ORDER_REFUNDED: '↺', ORDER_EXPIRED: '✕',
  ORDER_EXPIRY_WARNING: '!', SHOP_NEW_SALE: '¥', SALE_REMINDER: '◷', WAITLIST_OFFER: '⚑' };

// clock is an instant as a person reads it in Chinese: month, day and time of day.
const clock = (iso) => new Date(iso).toLocaleString('zh-CN', { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' });

// notificationText is the notification's line in the user's language: the server writes
// English; Chinese is put together here from the same facts.
function notificationText(n) {
  if (lang !== 'zh') return n.text;
  const who = (n.actor?.nickName || '有人') + (n.actorCount > 1 ? ` 等 ${n.actorCount} 人` : '');
  const note = n.blog ? `《${n.blog.title}》` : '';
  const sale = n.voucher ? `「${n.voucher.title}」` : '';
  switch (n.kind) {
    case 'BLOG_LIKED': return `${who}赞了你的笔记${note}`;
    case 'BLOG_COMMENTED': return `${who}评论了你的笔记${note}`;
    case 'COMMENT_REPLIED': return `${who}回复了你在${note || '笔记'}下的评论`;
    case 'FOLLOWED': return `${who}关注了你`;
    case 'ORDER_PAID': return `你的订单 ${n.order?.id ?? ''} 已支付，到店出示核销码即可使用`;
    case 'ORDER_REFUNDED': return `你的订单 ${n.order?.id ?? ''} 已退款`;
    case 'ORDER_EXPIRED': return `你的订单 ${n.order?.id ?? ''} 超时未支付，已取消`;
    case 'ORDER_EXPIRY_WARNING': return `你的订单 ${n.order?.id ?? ''} 即将超时，请尽快支付`;
    case 'SHOP_NEW_SALE': return `${n.voucher?.shop?.name || '你收藏的商户'}上新了秒杀${sale}`;
    case 'SALE_REMINDER': return n.voucher ? `你预约的秒杀${sale}将于 ${clock(n.voucher.beginTime)} 开始` : '你预约的秒杀即将开始';
    case 'WAITLIST_OFFER': return `${sale || '你候补的秒杀'}有一件退回的名额为你保留，请尽快到候补页面确认，过期将让给下一位`;
    default: return n.text;
  }
}

// Where a notification leads: its note, the waitlist (an offer), the sale's shop, or the orders.
const target = (n) => (n.blog ? `#/note/${n.blog.id}`
  : n.kind === 'WAITLIST_OFFER' ? '#/waitlist'
  : n.voucher?.shop ? `#/shop/${n.voucher.shop.id}`
  : n.order ? '#/orders' : null);

// The kinds of notification the settings turn on and off, in the order shown (a new
// setting is one more key here and its notify_<key> text in i18n.js).
const settingKeys = ['likes', 'comments', 'follows', 'orders', 'followedNotes', 'shopSales'];

function InboxSettings() {
  const [s, setS] = useState(null);
  const [err, setErr] = useState('');
  const [saved, setSaved] = useState(0); // changes the server has answered
  useEffect(() => { gql(Settings).then((d) => setS(d.notificationSettings)).catch((x) => setErr(x.message)); }, []);
  const change = async (key, on) => {
    setErr('');
    try { setS((await gql(UpdateSettings, { in: { [key]: on } })).updateNotificationSettings); setSaved((n) => n + 1); } catch (x) { setErr(x.message); }
  };
  return (
    <fieldset class="settings" id="inbox-settings" data-saved={saved}>
      <legend>{t('notifySettings')}</legend>
      {s && settingKeys.map((k) => (
        <label class="switch"><input type="checkbox" id={'notify-' + k} checked={s[k]} onChange={(e) => change(k, e.currentTarget.checked)} /> {t('notify_' + k)}</label>))}
      {err && <p role="alert" class="error">{err}</p>}
    </fieldset>
  );
}

export function Inbox() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [items, setItems] = useState(null);
  const [next, setNext] = useState(null);
  const [showSettings, setShowSettings] = useState(false);
  const [err, setErr] = useState('');
  // seq numbers the first-page reads: an answer to an older one is dropped.
  const seq = useRef(0);
  const load = async (after) => {
    const my = after ? seq.current : ++seq.current;
    const d = await gql(Notifications, { a: after || null, unread: unreadOnly });
    if (my !== seq.current) return;
    const list = d.notifications.edges.map((e) => e.node);
    setItems((old) => (after ? [...old, ...list] : list));
    setNext(d.notifications.pageInfo.hasNextPage ? d.notifications.pageInfo.endCursor : null);
  };
  useEffect(() => {
    if (!session.access) return undefined;
    load(null).catch((x) => setErr(x.message));
    // A pushed notification is re-read with the first page (a grouped one moves to the top).
    return onNotification(() => load(null).catch(() => {}));
  }, [unreadOnly]);
  if (!session.access) return <p><a href="#/login">{t('loginFirst')}</a></p>;
  const unread = items?.some((n) => !n.read);
  const markAll = async () => {
    setErr('');
    // Up to the newest one shown: a notification that arrives meanwhile stays unread.
    try { await gql(MarkRead, { upTo: items[0]?.id ?? null }); await load(null); recount(); } catch (x) { setErr(x.message); }
  };
  return (
    <section>
      <div class="title-row">
        <h1>{t('inbox')}</h1>
        <button id="settings-toggle" aria-expanded={showSettings} onClick={() => setShowSettings(!showSettings)}>⚙ {t('notifySettings')}</button>
      </div>
      {showSettings && <InboxSettings />}
      <div class="types" role="tablist">
        <button role="tab" aria-selected={!unreadOnly} onClick={() => setUnreadOnly(false)}>{t('allTypes')}</button>
        <button role="tab" aria-selected={unreadOnly} id="unread-only" onClick={() => setUnreadOnly(true)}>{t('unread')}</button>
        <button id="mark-read" disabled={!unread} onClick={markAll}>{t('markAllRead')}</button>
      </div>
      {err && <p role="alert" class="error">{err}</p>}
      {items && items.length === 0 && <p class="meta">{t('inboxEmpty')}</p>}
      <ul class="notifications">{items?.map((n) => {
        const href = target(n);
        const body = <>
          <span class="kind" aria-hidden="true">{icons[n.kind] || '•'}</span>
          {n.actor?.icon && <img src={n.actor.icon} alt="" class="avatar" width="24" height="24" />}
          <span class="text">{notificationText(n)}<small class="meta"> · {ago(n.updatedAt)}</small></span>
        </>;
        return <li class={'notification' + (n.read ? '' : ' unread')} data-id={n.id} data-kind={n.kind}>
          {href ? <a href={href}>{body}</a> : <div>{body}</div>}</li>;
      })}</ul>
      <More next={next} load={load} />
    </section>
  );
}

// My waitlist: the user's places in sold-out sales' lines with their live positions, and
// a returned unit held for the user, with the time left to accept or decline it.
import { useEffect, useState } from 'preact/hooks';
import { gql, session } from './api.js';
import { graphql } from './gql';
import { t } from './i18n.js';
import { onNotification } from './inbox.jsx';
import { answer, countdown, money, useNow } from './ui.jsx';

const MyWaitlist = graphql(`query MyWaitlist { myWaitlist { id voucherId status position joinedAt offer { offeredAt expiresAt }
  voucher { id title payValue actualValue shop { id name } } } }`);
const AcceptOffer = graphql(`mutation AcceptOffer($v: ID!) { acceptOffer(voucherId: $v) { id status } }`);
const DeclineOffer = graphql(`mutation DeclineOffer($v: ID!) { declineOffer(voucherId: $v) }`);
const LeaveWaitlist = graphql(`mutation LeaveWaitlist($v: ID!) { leaveWaitlist(voucherId: $v) }`);

// Positions move as people ahead leave or take a unit: the page reads them again this often.
const refreshEvery = 10_000;

export function Waitlist() {
  const [places, setPlaces] = useState(null);
  const [err, setErr] = useState('');
  // made is the order an accepted offer became, with its sale's title.
  const [made, setMade] = useState(null);
  const [busy, setBusy] = useState('');
  const load = () => gql(MyWaitlist).then((d) => setPlaces(d.myWaitlist));
  useEffect(() => {
    if (!session.access) return undefined;
    load().catch((x) => setErr(answer(x)));
    // An offer comes as a notification: read the places again at once.
    const stop = onNotification(() => load().catch(() => {}));
    const i = setInterval(() => load().catch(() => {}), refreshEvery);
    return () => { stop(); clearInterval(i); };
  }, []);
  const now = useNow();
  if (!session.access) return <p><a href="#/login">{t('loginFirst')}</a></p>;
  const act = async (p, mutation) => {
    setErr(''); setBusy(p.voucherId);
    try {
      const d = await gql(mutation, { v: p.voucherId });
      if (d.acceptOffer) setMade({ ...d.acceptOffer, title: p.voucher.title });
    } catch (x) { setErr(answer(x)); }
    await load().catch(() => {});
    setBusy('');
  };
  return (
    <section>
      <h1>{t('waitlist')}</h1>
      {made && <p class="hint order-made" aria-live="polite" data-order={made.id} data-status={made.status}>
        {t('orderMade')} {made.id} · {made.title} · <b>{t(made.status)}</b> · <a href="#/orders" id="see-orders">{t('seeOrders')}</a></p>}
      {err && <p role="alert" class="error">{err}</p>}
      {places && places.length === 0 && !made && <p class="meta">{t('noWaitlist')}</p>}
      <ul class="waitlist">{places?.map((p) => {
        const v = p.voucher;
        const left = p.offer ? Date.parse(p.offer.expiresAt) - now : 0;
        return (
          <li class={'place' + (p.offer ? ' offered' : '')} data-voucher={p.voucherId} data-status={p.status}>
            <a href={`#/shop/${v.shop.id}`} class="shop-link">
              <b>{v.title}</b>
              <span>{v.shop.name} · ¥{money(v.payValue)} <s>¥{money(v.actualValue)}</s></span>
            </a>
            {p.offer
              ? <div class="offer" aria-live="polite">
                <p><b>{t('offerHeld')}</b> · {t('offerExpires')} <b class="offer-countdown" data-ms={Math.max(0, left)}>{countdown(left)}</b></p>
                <div class="actions">
                  <button class="accept claim" disabled={busy === p.voucherId || left <= 0} onClick={() => act(p, AcceptOffer)}>{t('accept')}</button>
                  <button class="decline" disabled={busy === p.voucherId} onClick={() => act(p, DeclineOffer)}>{t('decline')}</button>
                </div>
              </div>
              : <div class="in-line">
                <span class="position-label">{t('inLine')} <b class="position">{p.position}</b></span>
                <button class="leave" disabled={busy === p.voucherId} onClick={() => act(p, LeaveWaitlist)}>{t('leave')}</button>
              </div>}
          </li>);
      })}</ul>
    </section>
  );
}

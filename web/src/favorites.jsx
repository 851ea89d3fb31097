// My favourites: the shops and vouchers the user marked, newest first.
import { useEffect, useState } from 'preact/hooks';
import { gql, session } from './api.js';
import { graphql } from './gql';
import { t } from './i18n.js';
import { Heart, More, ShopCard, money } from './ui.jsx';

const MyFavorites = graphql(`query MyFavorites($a: String) { myFavorites(first: 20, after: $a) {
  edges { node { id createdAt
    shop { id name area avgPrice score comments images { url } favoritedByMe favoriteCount }
    voucher { id title payValue actualValue kind endTime favoritedByMe shop { id name } } } }
  pageInfo { hasNextPage endCursor } } }`);

export function Favorites() {
  const [items, setItems] = useState(null);
  const [next, setNext] = useState(null);
  const load = async (after) => {
    const d = await gql(MyFavorites, { a: after || null });
    const list = d.myFavorites.edges.map((e) => e.node).filter((f) => f.shop || f.voucher); // a gone target is left out
    setItems((old) => (after ? [...old, ...list] : list));
    setNext(d.myFavorites.pageInfo.hasNextPage ? d.myFavorites.pageInfo.endCursor : null);
  };
  useEffect(() => { if (session.access) load(null); }, []);
  if (!session.access) return <p><a href="#/login">{t('loginFirst')}</a></p>;
  return (
    <section>
      <h1>{t('favorites')}</h1>
      {items && items.length === 0 && <p class="meta">{t('noFavorites')}</p>}
      <ul class="favorites shops">{items?.map((f) => (f.shop
        ? <ShopCard s={f.shop} />
        : <li class="voucher-card" data-voucher={f.voucher.id}>
          <a href={`#/shop/${f.voucher.shop.id}`} class="shop-link">
            <b>{f.voucher.title}</b>
            <span>{f.voucher.shop.name} · ¥{money(f.voucher.payValue)} <s>¥{money(f.voucher.actualValue)}</s>
              {f.voucher.kind === 'FLASH_SALE' && <> · {t('flashSale')}</>}</span></a>
          <Heart kind="voucher" id={f.voucher.id} on={f.voucher.favoritedByMe} /></li>))}</ul>
      <More next={next} load={load} />
    </section>
  );
}

// Search: the header's box and the results page, one tab per kind (shops, notes,
// people), each result with the snippet where it matched.
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from './api.js';
import { graphql } from './gql';
import { t } from './i18n.js';
import { More, money } from './ui.jsx';

const Search = graphql(`query Search($q: String!, $kind: SearchKind!, $a: String) {
  search(query: $q, kind: $kind, first: 10, after: $a) {
    edges { node { score snippet
      shop { id name area avgPrice score images { url } }
      note { id title likedCount author { nickName } shop { name } }
      user { id nickName icon } } }
    pageInfo { hasNextPage endCursor } } }`);

export const searchKinds = ['SHOP', 'NOTE', 'USER'];

// searchHref is the results page of query q among kind.
export const searchHref = (kind, q) => `#/search/${kind}/${encodeURIComponent(q)}`;

const entities = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s) => s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => (e[0] === '#'
  ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
  : entities[e.toLowerCase()] ?? m));

// Snippet shows the server's snippet, HTML-escaped text with each match in
// <mark>…</mark>, as text and <mark> elements: nothing else in it is taken as markup.
export function Snippet({ html }) {
  const parts = html.split(/<mark>([\s\S]*?)<\/mark>/);
  // split with a group: the text between matches at even places, the matches at odd.
  return <span class="snippet">{parts.map((p, i) => (i % 2 ? <mark>{unescape(p)}</mark> : unescape(p)))}</span>;
}

// Titled shows a result's name, marked where it matched when the snippet is the name
// itself, and otherwise the snippet below it.
function Titled({ name, snippet, icon }) {
  const own = unescape(snippet.replace(/<\/?mark>/g, '')) === name;
  return <>
    <b class="result-title">{icon && <img src={icon} alt="" class="avatar" width="24" height="24" />}{own ? <Snippet html={snippet} /> : name}</b>
    {!own && <Snippet html={snippet} />}
  </>;
}

// SearchBox is the header's search field; it searches the kind shown, else shops.
export function SearchBox({ kind, query }) {
  const [q, setQ] = useState(query || '');
  useEffect(() => setQ(query || ''), [query]);
  const submit = (e) => {
    e.preventDefault();
    if (q.trim()) location.hash = searchHref(kind || 'SHOP', q.trim());
  };
  return (
    <form class="search-box" role="search" onSubmit={submit}>
      <input type="search" id="search-box" name="q" value={q} maxLength={100} placeholder={t('searchAll')} aria-label={t('searchAll')}
        onInput={(e) => setQ(e.currentTarget.value)} />
      <button type="submit" id="search-go" aria-label={t('searchGo')}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" class="icon"><circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" stroke-width="2.4" />
          <path d="M15.5 15.5L21 21" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" /></svg></button>
    </form>
  );
}

export function SearchPage({ kind, query }) {
  const [results, setResults] = useState(null);
  // shown is the kind and query the list was read with.
  const [shown, setShown] = useState('');
  const [next, setNext] = useState(null);
  const [err, setErr] = useState('');
  // seq numbers the first-page reads: an answer to an older one is dropped.
  const seq = useRef(0);
  const load = async (after) => {
    setErr('');
    try {
      const my = after ? seq.current : ++seq.current;
      const d = await gql(Search, { q: query, kind, a: after || null });
      if (my !== seq.current) return;
      const list = d.search.edges.map((e) => e.node);
      setResults((old) => (after ? [...old, ...list] : list));
      setShown(`${kind}:${query}`);
      setNext(d.search.pageInfo.hasNextPage ? d.search.pageInfo.endCursor : null);
    } catch (x) { setResults([]); setNext(null); setShown(`${kind}:${query}`); setErr(t(x.code) === x.code ? x.message : t(x.code)); }
  };
  useEffect(() => { setResults(null); if (query) load(null); }, [kind, query]);
  return (
    <section>
      <h1>{t('searchFor')} “{query}”</h1>
      <div class="types" role="tablist">
        {searchKinds.map((k) => <a role="tab" class="button" id={'search-' + k} aria-selected={k === kind} href={searchHref(k, query)}>{t('kind_' + k)}</a>)}
      </div>
      {err && <p role="alert" class="error">{err}</p>}
      {results && results.length === 0 && !err && <p class="meta" id="no-results">{t('noResults')}</p>}
      <ul class="results" data-shown={shown}>{results?.map((r) => (
        <li class="result" data-kind={kind}>
          {r.shop && <a href={`#/shop/${r.shop.id}`} class="shop-link">
            <Titled name={r.shop.name} snippet={r.snippet} />
            <span>{r.shop.area} · {t('perPerson')} ¥{money(r.shop.avgPrice)} · {t('score')} {(r.shop.score / 10).toFixed(1)}</span></a>}
          {r.note && <a href={`#/note/${r.note.id}`} class="shop-link">
            <Titled name={r.note.title} snippet={r.snippet} />
            <span>{r.note.author.nickName}{r.note.shop ? ' · ' + r.note.shop.name : ''} · ♥{r.note.likedCount}</span></a>}
          {r.user && <div class="shop-link person">
            <Titled name={r.user.nickName} snippet={r.snippet} icon={r.user.icon} /></div>}
        </li>))}</ul>
      <More next={next} load={load} id="more-results" />
    </section>
  );
}

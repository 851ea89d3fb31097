// Talking to the Dealspot server: GraphQL over POST for queries and mutations, over
// graphql-ws (graphql-transport-ws) for subscriptions. The session (access and refresh
// tokens) lives in localStorage; an UNAUTHENTICATED answer refreshes it once.
import { createClient } from 'graphql-ws';
import { graphql } from './gql';

const Refresh = graphql(`mutation Refresh($t: String!) { refreshToken(token: $t) { accessToken refreshToken user { id nickName role } } }`);

const store = window.localStorage;
export const session = {
  get access() { return store.getItem('access') || ''; },
  get refresh() { return store.getItem('refresh') || ''; },
  get user() { try { return JSON.parse(store.getItem('user') || 'null'); } catch { return null; } },
  save(auth) {
    store.setItem('access', auth.accessToken);
    store.setItem('refresh', auth.refreshToken);
    if (auth.user) store.setItem('user', JSON.stringify(auth.user));
    resetSocket();
  },
  clear() { store.removeItem('access'); store.removeItem('refresh'); store.removeItem('user'); resetSocket(); },
};

// GraphQLError carries the server's extensions.code.
export class GraphQLError extends Error {
  constructor(e) { super(e.message); this.code = e.extensions?.code || 'ERROR'; this.extensions = e.extensions || {}; }
}

// text is a typed document's GraphQL text; a document graphql-codegen did not see (not
// a template literal in src/) would have none.
function text(doc) {
  const s = String(doc);
  if (!s.includes('{')) throw new Error('a GraphQL document missing from src/gql: run make web');
  return s;
}

async function post(query, variables, token) {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: 'Bearer ' + token } : {}) },
    body: JSON.stringify({ query: text(query), variables }),
  });
  return res.json();
}

let refreshing = null;
async function refreshSession() {
  refreshing ??= post(Refresh, { t: session.refresh }).then((r) => {
    if (r.data?.refreshToken) session.save(r.data.refreshToken); else session.clear();
    return !!r.data?.refreshToken;
  }).finally(() => { refreshing = null; });
  return refreshing;
}

// gql runs one operation and returns its data, or throws a GraphQLError.
export async function gql(query, variables = {}) {
  let r = await post(query, variables, session.access);
  if (r.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED' && session.refresh && await refreshSession()) {
    r = await post(query, variables, session.access);
  }
  if (r.errors?.length) throw new GraphQLError(r.errors[0]);
  return r.data;
}

let socket = null;
function resetSocket() { if (socket) { socket.dispose(); socket = null; } }

const wsURL = () => (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/graphql';

function run(client, query, variables, onData, onError, onComplete) {
  return client.subscribe({ query: text(query), variables }, {
    next: (r) => (r.errors?.length ? onError?.(new GraphQLError(r.errors[0])) : onData(r.data)),
    error: (e) => onError?.(e instanceof Error ? e : new Error(String(e?.reason || 'connection closed'))),
    complete: () => onComplete?.(),
  });
}

// subscribe runs a subscription as the logged-in user; onData gets each result's data.
// onComplete, if given, hears of its end, also when the session changed (a refresh or a
// login closes the socket). It returns a stop function.
export function subscribe(query, variables, onData, onError, onComplete) {
  socket ??= createClient({ url: wsURL(), connectionParams: () => ({ Authorization: 'Bearer ' + session.access }), lazy: true });
  return run(socket, query, variables, onData, onError, onComplete);
}

// subscribePublic runs a subscription anyone may run (saleProgress) on an anonymous
// socket of its own, which logging in or out leaves running.
let publicSocket = null;
export function subscribePublic(query, variables, onData, onError) {
  publicSocket ??= createClient({ url: wsURL(), lazy: true, retryAttempts: 20 });
  return run(publicSocket, query, variables, onData, onError);
}

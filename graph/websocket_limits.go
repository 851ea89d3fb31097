package graph

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/dealspot/dealspot/internal/domain"
)

// closeTooMany refuses a websocket over a connection limit.
const closeTooMany = 4429

// socketLimits counts this node's open websocket connections per client IP and in total
// (from the upgrade on, so that idle upgrades count too), per user (from
// connection_init, which names the user), and the operations running on them per
// socket and per user. The counts are per node and in memory: behind a load balancer
// with N nodes a user may hold up to N times the per-user limits.
type socketLimits struct {
	perUser, perIP, total    int // connections; 0: unlimited
	opsPerSocket, opsPerUser int // operations; 0: unlimited

	mu      sync.Mutex
	users   map[int64]int
	ips     map[string]int
	open    int
	userOps map[int64]int
}

func newSocketLimits(o WebsocketOptions) *socketLimits {
	return &socketLimits{perUser: o.MaxPerUser, perIP: o.MaxPerIP, total: o.MaxTotal,
		opsPerSocket: o.MaxOperationsPerSocket, opsPerUser: o.MaxOperationsPerUser,
		users: map[int64]int{}, ips: map[string]int{}, userOps: map[int64]int{}}
}

// upgrade takes a slot for a connection from ip (empty: unknown) before it is upgraded,
// or returns why it cannot; release gives the slot back and may be called more than
// once.
func (l *socketLimits) upgrade(ip string) (release func(), refusal string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.total > 0 && l.open >= l.total:
		return nil, "too many websocket connections on this server, try again later"
	case l.perIP > 0 && ip != "" && l.ips[ip] >= l.perIP:
		return nil, "too many websocket connections from this address"
	}
	l.open++
	if ip != "" {
		l.ips[ip]++
	}
	return l.once(func() {
		l.open--
		if ip != "" {
			if l.ips[ip]--; l.ips[ip] <= 0 {
				delete(l.ips, ip)
			}
		}
	}), ""
}

// user takes a slot for a connection of user at its connection_init, or returns why it
// cannot.
func (l *socketLimits) user(user int64) (release func(), refusal string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.perUser > 0 && l.users[user] >= l.perUser {
		return nil, "too many websocket connections for this user"
	}
	l.users[user]++
	return l.once(func() {
		if l.users[user]--; l.users[user] <= 0 {
			delete(l.users, user)
		}
	}), ""
}

// operation takes a slot for one operation of user on s, or returns why it cannot. An
// anonymous operation (user 0) counts on its socket only: anonymous sockets are bounded
// per address at the upgrade.
func (l *socketLimits) operation(s *socket, user int64) (release func(), refusal string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.opsPerSocket > 0 && s.ops >= l.opsPerSocket:
		return nil, "too many operations on this websocket; complete some first"
	case user != 0 && l.opsPerUser > 0 && l.userOps[user] >= l.opsPerUser:
		return nil, "too many operations on your websockets; complete some first"
	}
	s.ops++
	if user != 0 {
		l.userOps[user]++
	}
	return l.once(func() {
		s.ops--
		if user == 0 {
			return
		}
		if l.userOps[user]--; l.userOps[user] <= 0 {
			delete(l.userOps, user)
		}
	}), ""
}

// once returns a release that runs give, under the lock, the first time it is called.
func (l *socketLimits) once(give func()) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			give()
		})
	}
}

// refuseUpgrade answers an upgrade over a connection limit with 429 and a coded GraphQL
// error, before anything is upgraded.
func refuseUpgrade(rw http.ResponseWriter, reason string) {
	rw.Header().Set("Content-Type", "application/json")
	rw.Header().Set("Retry-After", "1")
	rw.WriteHeader(http.StatusTooManyRequests)
	body, _ := json.Marshal(map[string]any{"data": nil, "errors": []map[string]any{{
		"message": reason, "extensions": map[string]any{"code": string(domain.CodeRateLimited)},
	}}})
	_, _ = rw.Write(body)
}

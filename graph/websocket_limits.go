package graph

import "sync"

// closeTooMany refuses a websocket over a connection limit.
const closeTooMany = 4429

// socketLimits counts this node's open websocket connections per user, per client IP
// and in total. The counts are per node and in memory: behind a load balancer with N
// nodes a user may hold up to N times the per-user limit.
type socketLimits struct {
	perUser, perIP, total int // 0: unlimited

	mu    sync.Mutex
	users map[int64]int
	ips   map[string]int
	open  int
}

func newSocketLimits(perUser, perIP, total int) *socketLimits {
	return &socketLimits{perUser: perUser, perIP: perIP, total: total, users: map[int64]int{}, ips: map[string]int{}}
}

// acquire takes a slot for a connection of user from ip (empty: unknown), or returns
// why it cannot; release gives the slot back and must be called exactly once.
func (l *socketLimits) acquire(user int64, ip string) (release func(), refusal string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.total > 0 && l.open >= l.total:
		return nil, "too many websocket connections on this server, try again later"
	case l.perUser > 0 && l.users[user] >= l.perUser:
		return nil, "too many websocket connections for this user"
	case l.perIP > 0 && ip != "" && l.ips[ip] >= l.perIP:
		return nil, "too many websocket connections from this address"
	}
	l.open++
	l.users[user]++
	if ip != "" {
		l.ips[ip]++
	}
	var once sync.Once
	return func() { once.Do(func() { l.release(user, ip) }) }, ""
}

func (l *socketLimits) release(user int64, ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.users[user]--; l.users[user] <= 0 {
		delete(l.users, user)
	}
	if ip != "" {
		if l.ips[ip]--; l.ips[ip] <= 0 {
			delete(l.ips, ip)
		}
	}
}

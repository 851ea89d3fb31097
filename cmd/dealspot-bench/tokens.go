package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/sync/errgroup"

	"github.com/dealspot/dealspot/internal/app/auth"
	"github.com/dealspot/dealspot/internal/domain"
)

// login logs one phone in through the API (dev mode hands the code back) and returns
// its access token.
func login(ctx context.Context, c *client, phone string) (string, error) {
	var sent struct {
		SendLoginCode struct {
			Sent              bool
			RetryAfterSeconds int
			DevCode           *string
		}
	}
	if err := c.call(ctx, "", `mutation Send($p: String!) { sendLoginCode(phone: $p) { sent retryAfterSeconds devCode } }`,
		map[string]any{"p": phone}, &sent); err != nil {
		return "", fmt.Errorf("sendLoginCode(%s): %w", phone, err)
	}
	s := sent.SendLoginCode
	switch {
	case !s.Sent:
		return "", fmt.Errorf("sendLoginCode(%s): no code sent, retry after %ds", phone, s.RetryAfterSeconds)
	case s.DevCode == nil:
		return "", errors.New("the server does not hand out login codes (not in dev mode); mint tokens with --jwt-secret instead")
	}
	var in struct {
		Login struct{ AccessToken string }
	}
	if err := c.call(ctx, "", `mutation Login($p: String!, $c: String!) { login(phone: $p, code: $c) { accessToken } }`,
		map[string]any{"p": phone, "c": *s.DevCode}, &in); err != nil {
		return "", fmt.Errorf("login(%s): %w", phone, err)
	}
	return in.Login.AccessToken, nil
}

// benchPhones returns n mainland mobile numbers in a run-random range, so that repeated
// runs against one server do not meet the per-phone code interval.
func benchPhones(n int) ([]string, error) {
	start, err := rand.Int(rand.Reader, big.NewInt(int64(1_000_000_000-n)))
	if err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("17%09d", start.Int64()+int64(i))
	}
	return out, nil
}

// loginAll logs every phone in, concurrency at a time.
func loginAll(ctx context.Context, c *client, phones []string, concurrency int, bar *progressBar) ([]string, error) {
	tokens := make([]string, len(phones))
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for range min(concurrency, len(phones)) {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(phones) || ctx.Err() != nil {
					return ctx.Err()
				}
				t, err := login(ctx, c, phones[i])
				if err != nil {
					return err
				}
				tokens[i] = t
				bar.add(1)
			}
		})
	}
	return tokens, g.Wait()
}

// sessionCreator registers a session family the way the server's refresh store does;
// an access token is only honoured while its family is live.
type sessionCreator interface {
	Create(ctx context.Context, userID int64, familyID, tokenHash string, ttl time.Duration) error
}

// sessionCache is the server's Redis cache of sessions and account states. A login fills
// it, so a minted session is put there too: the session check would otherwise read the
// sessions table, and the users table, where a minted user has no row.
type sessionCache interface {
	sessionCreator
	RememberAccount(ctx context.Context, userID int64, a auth.AccountState, ttl time.Duration) error
}

// minter signs access tokens as the server would.
type minter struct {
	secret   []byte
	issuer   string
	ttl      time.Duration
	sessions sessionCreator
	cache    sessionCache
}

func newMinter(secret string, sessions sessionCreator, cache sessionCache) (*minter, error) {
	if len(secret) < auth.MinSecretLen {
		return nil, fmt.Errorf("--jwt-secret must be at least %d bytes", auth.MinSecretLen)
	}
	return &minter{secret: []byte(secret), issuer: auth.DefaultConfig().Issuer, ttl: 2 * time.Hour, sessions: sessions, cache: cache}, nil
}

type accessClaims struct {
	Role      domain.Role `json:"role"`
	SessionID string      `json:"sid"`
	jwt.RegisteredClaims
}

// mint registers a fresh session family for userID and signs its access token.
func (m *minter) mint(ctx context.Context, userID int64) (string, error) {
	family := randomHex(16)
	// The family's refresh token is never handed out; its digest only has to exist.
	if err := m.sessions.Create(ctx, userID, family, sha256Hex(randomHex(32)), m.ttl); err != nil {
		return "", err
	}
	if m.cache != nil {
		if err := m.cache.Create(ctx, userID, family, "", m.ttl); err != nil {
			return "", err
		}
		if err := m.cache.RememberAccount(ctx, userID, auth.AccountState{Role: domain.RoleUser}, m.ttl); err != nil {
			return "", err
		}
	}
	now := time.Now()
	claims := accessClaims{
		Role:      domain.RoleUser,
		SessionID: family,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    m.issuer,
			Subject:   strconv.FormatInt(userID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(m.ttl)),
			ID:        randomHex(16),
		},
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(m.secret)
}

// mintAll mints tokens for users firstID … firstID+n-1, concurrency at a time.
func mintAll(ctx context.Context, m *minter, firstID int64, n, concurrency int, bar *progressBar) ([]string, error) {
	tokens := make([]string, n)
	var next atomic.Int64
	g, ctx := errgroup.WithContext(ctx)
	for range min(concurrency, n) {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return ctx.Err()
				}
				t, err := m.mint(ctx, firstID+int64(i))
				if err != nil {
					return fmt.Errorf("mint token for user %d: %w", firstID+int64(i), err)
				}
				tokens[i] = t
				bar.add(1)
			}
		})
	}
	return tokens, g.Wait()
}

// randomUserBase picks where minted user ids start: far above the ids a database hands
// out, and different on every run.
func randomUserBase() (int64, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1<<40))
	if err != nil {
		return 0, err
	}
	return 1_000_000_000_000 + n.Int64(), nil
}

// checkTokens asks the server, with a few of the tokens, for an operation that needs a
// caller: a refused token would otherwise go unnoticed by the baseline, whose fields
// are public.
func checkTokens(ctx context.Context, c *client, tokens []string) error {
	for _, i := range []int{0, len(tokens) / 2, len(tokens) - 1} {
		if err := c.call(ctx, tokens[i], `query Check { order(id: "1") { id } }`, nil, nil); err != nil {
			return fmt.Errorf("the server refuses token %d of %d: %w", i+1, len(tokens), err)
		}
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// progressBar shows how far a preparation step has got: in place on a terminal, every
// few seconds elsewhere.
type progressBar struct {
	w     io.Writer
	tty   bool
	label string
	total int
	start time.Time
	done  atomic.Int64
	stop  chan struct{}
	wg    sync.WaitGroup
}

func startProgress(w io.Writer, tty bool, label string, total int) *progressBar {
	p := &progressBar{w: w, tty: tty, label: label, total: total, start: time.Now(), stop: make(chan struct{})}
	every := 3 * time.Second
	if tty {
		every = 200 * time.Millisecond
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.draw(false)
			}
		}
	}()
	return p
}

func (p *progressBar) add(n int) { p.done.Add(int64(n)) }

// finish stops the bar and leaves its last state on screen.
func (p *progressBar) finish() time.Duration {
	close(p.stop)
	p.wg.Wait()
	p.draw(true)
	return time.Since(p.start)
}

func (p *progressBar) draw(final bool) {
	const width = 30
	done := int(p.done.Load())
	frac := float64(done) / float64(max(p.total, 1))
	filled := int(frac * width)
	elapsed := time.Since(p.start).Seconds()
	rate := float64(done) / max(elapsed, 1e-9)
	line := fmt.Sprintf("%-8s [%s%s] %d/%d %3.0f%% %6.0f/s %5.1fs", p.label,
		strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, p.total, frac*100, rate, elapsed)
	switch {
	case p.tty && final:
		fmt.Fprintf(p.w, "\r\033[K%s\n", line)
	case p.tty:
		fmt.Fprintf(p.w, "\r\033[K%s", line)
	default:
		fmt.Fprintln(p.w, line)
	}
}

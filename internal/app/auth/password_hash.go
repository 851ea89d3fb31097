package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Lengths of what a new hash stores: RFC 9106's 128-bit salt and a 256-bit tag.
const (
	saltLen = 16
	keyLen  = 32
)

// passwordHasher computes argon2id hashes, at most cfg.HashConcurrency at once: each takes
// Argon2.MemoryKiB of memory and a core for tens of milliseconds, so a flood of logins
// must queue rather than take the machine.
type passwordHasher struct {
	cfg   PasswordConfig
	slots chan struct{}
	// dummy is a hash of nothing anyone knows, checked for phones without a password so
	// that they cost what a real check costs. Made on first use: most processes of the
	// tests never check a password.
	dummyOnce sync.Once
	dummy     string
}

func newPasswordHasher(cfg PasswordConfig) *passwordHasher {
	return &passwordHasher{cfg: cfg, slots: make(chan struct{}, cfg.HashConcurrency)}
}

// run runs fn in one of the slots, waiting for one until ctx ends.
func (h *passwordHasher) run(ctx context.Context, fn func()) error {
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("wait to hash a password: %w", ctx.Err())
	}
	defer func() { <-h.slots }()
	fn()
	return nil
}

// hash returns password's argon2id hash as a PHC string with the configured parameters:
// $argon2id$v=19$m=<KiB>,t=<iterations>,p=<lanes>$<salt>$<key> (unpadded base64).
func (h *passwordHasher) hash(ctx context.Context, password string) (string, error) {
	p := h.cfg.Argon2
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password salt: %w", err)
	}
	var key []byte
	if err := h.run(ctx, func() {
		key = argon2.IDKey([]byte(password), salt, p.Iterations, p.MemoryKiB, p.Parallelism, keyLen)
	}); err != nil {
		return "", err
	}
	return encodeHash(p, salt, key), nil
}

// check reports whether password matches stored (a PHC string from hash), and whether
// stored was made with other parameters than the configured ones (then it should be made
// again). An empty stored is checked against a dummy hash, at the same cost, and never
// matches. An error means stored is not a hash this code can read, or ctx ended.
func (h *passwordHasher) check(ctx context.Context, stored, password string) (match, stale bool, err error) {
	known := stored != ""
	if !known {
		h.dummyOnce.Do(func() {
			key := argon2.IDKey([]byte(randomHex(16)), []byte(randomHex(8)), h.cfg.Argon2.Iterations,
				h.cfg.Argon2.MemoryKiB, h.cfg.Argon2.Parallelism, keyLen)
			h.dummy = encodeHash(h.cfg.Argon2, []byte(randomHex(8)), key)
		})
		stored = h.dummy
	}
	p, salt, key, err := decodeHash(stored)
	if err != nil {
		return false, false, err
	}
	var got []byte
	if err := h.run(ctx, func() {
		got = argon2.IDKey([]byte(password), salt, p.Iterations, p.MemoryKiB, p.Parallelism, uint32(len(key)))
	}); err != nil {
		return false, false, err
	}
	match = subtle.ConstantTimeCompare(got, key) == 1 && known
	return match, p != h.cfg.Argon2, nil
}

// checkLength refuses a password outside the configured length, in characters; an
// overlong guess is refused before it costs a hash.
func (h *passwordHasher) checkLength(password string) error {
	if len(password) > 4*h.cfg.MaxLength || !utf8.ValidString(password) {
		return badInput(fmt.Sprintf("password must be %d to %d characters of UTF-8", h.cfg.MinLength, h.cfg.MaxLength))
	}
	if n := utf8.RuneCountInString(password); n < h.cfg.MinLength || n > h.cfg.MaxLength {
		return badInput(fmt.Sprintf("password must be %d to %d characters", h.cfg.MinLength, h.cfg.MaxLength))
	}
	return nil
}

var b64 = base64.RawStdEncoding

func encodeHash(p Argon2Params, salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version,
		p.MemoryKiB, p.Iterations, p.Parallelism, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// errBadHash is a stored hash this code cannot read (never shown to clients).
var errBadHash = errors.New("stored password hash is not an argon2id PHC string")

// decodeHash reads a PHC string written by encodeHash. Its parameters are bounded as the
// configuration is, so that a damaged row cannot make one check take the machine.
func decodeHash(s string) (p Argon2Params, salt, key []byte, err error) {
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return p, nil, nil, errBadHash
	}
	var m, t, l uint64
	for _, kv := range strings.Split(parts[3], ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return p, nil, nil, errBadHash
		}
		switch k {
		case "m":
			m = n
		case "t":
			t = n
		case "p":
			l = n
		default:
			return p, nil, nil, errBadHash
		}
	}
	if t < 1 || t > maxArgon2Iterations || l < 1 || l > 255 || m < 8*l || m > maxArgon2MemoryKiB {
		return p, nil, nil, errBadHash
	}
	salt, err1 := b64.DecodeString(parts[4])
	key, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(salt) > 64 || len(key) < 16 || len(key) > 64 {
		return p, nil, nil, errBadHash
	}
	return Argon2Params{MemoryKiB: uint32(m), Iterations: uint32(t), Parallelism: uint8(l)}, salt, key, nil
}

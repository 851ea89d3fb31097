package config

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// reader collects every parse error, each naming its variable. A value it cannot read
// counts as the variable's default, so that the checks across variables that run after
// it see sensible values and report only what is really wrong.
type reader struct {
	getenv func(string) string
	errs   []error
}

func (r *reader) str(name, def string) string {
	if v := strings.TrimSpace(r.getenv(name)); v != "" {
		return v
	}
	return def
}

func (r *reader) list(name, def string) []string {
	var out []string
	for _, p := range strings.Split(r.str(name, def), ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (r *reader) fail(name, format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...)))
}

// err is every parse error, joined; nil when every variable was read.
func (r *reader) err() error { return errors.Join(r.errs...) }

func (r *reader) boolean(name string, def bool) bool {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.fail(name, "want true or false, got %q", v)
		return def
	}
	return b
}

func (r *reader) integer64(name string, def, min int64) int64 {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < min {
		r.fail(name, "want an integer ≥ %d, got %q", min, v)
		return def
	}
	return n
}

func (r *reader) integer(name string, def, min int) int {
	return int(r.integer64(name, int64(def), int64(min)))
}

func (r *reader) rate(name string, def Rate) Rate {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	if v == "off" {
		return Rate{}
	}
	maxPart, windowPart, ok := strings.Cut(v, "/")
	n, err1 := strconv.Atoi(strings.TrimSpace(maxPart))
	d, err2 := time.ParseDuration(strings.TrimSpace(windowPart))
	if !ok || err1 != nil || err2 != nil || n < 1 || d <= 0 {
		r.fail(name, "want max/window such as 30/10m, or off, got %q", v)
		return def
	}
	return Rate{Max: n, Window: d}
}

// origins reads a comma-separated list of web origins (scheme://host[:port], http or
// https, no path), lower-cased.
func (r *reader) origins(name string) []string {
	var out []string
	for _, v := range r.list(name, "") {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			r.fail(name, "want comma-separated origins such as https://app.example.com, got %q", v)
			return nil
		}
		out = append(out, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	return out
}

// prefixes reads a comma-separated list of CIDRs; a bare address is a network of one.
func (r *reader) prefixes(name string) []netip.Prefix {
	var out []netip.Prefix
	for _, v := range r.list(name, "") {
		p, err := netip.ParsePrefix(v)
		if err != nil {
			a, aerr := netip.ParseAddr(v)
			if aerr != nil {
				r.fail(name, "want comma-separated CIDRs such as 10.0.0.0/8,fd00::/8, got %q", v)
				return nil
			}
			a = a.Unmap()
			p = netip.PrefixFrom(a, a.BitLen())
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out
}

// location reads an IANA time zone name such as Asia/Shanghai.
func (r *reader) location(name, def string) *time.Location {
	v := r.str(name, def)
	loc, err := time.LoadLocation(v)
	if err != nil {
		r.fail(name, "want an IANA time zone such as Asia/Shanghai or UTC, got %q", v)
		return time.UTC
	}
	return loc
}

// coalesce reads <prefix>_WINDOW (default 200µs, 0: off) and <prefix>_MAX (default 64).
func (r *reader) coalesce(prefix string) Coalesce {
	return Coalesce{
		Window: r.durationOrZero(prefix+"_WINDOW", 200*time.Microsecond),
		Max:    r.integer(prefix+"_MAX", 64, 1),
	}
}

// durationOrZero is duration where "0" is allowed (it turns something off).
func (r *reader) durationOrZero(name string, def time.Duration) time.Duration {
	if v := r.str(name, ""); v == "0" {
		return 0
	}
	return r.duration(name, def)
}

func (r *reader) duration(name string, def time.Duration) time.Duration {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		r.fail(name, "want a positive duration such as 5s, got %q", v)
		return def
	}
	return d
}

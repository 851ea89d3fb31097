package service

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
)

// settingError blames a failure to start on the setting that chose the failing thing,
// in words an operator can act on; the cause stays reachable for errors.Is and As.
type settingError struct {
	setting string
	msg     string
	err     error
}

func (e *settingError) Error() string { return e.setting + ": " + e.msg }
func (e *settingError) Unwrap() error { return e.err }

// blame names setting in err. A network failure reads "cannot reach <what> at <addr>:
// connection refused", without the driver's own wording around the system error.
func blame(setting, what, addr string, err error) error {
	var opErr *net.OpError
	if !errors.As(err, &opErr) {
		return &settingError{setting: setting, msg: err.Error(), err: err}
	}
	reason := opErr.Err.Error()
	var sysErr *os.SyscallError
	var dnsErr *net.DNSError
	switch {
	case errors.As(opErr.Err, &sysErr):
		reason = sysErr.Err.Error()
	case errors.As(opErr.Err, &dnsErr):
		reason = fmt.Sprintf("no such host %s", dnsErr.Name)
		if !dnsErr.IsNotFound {
			reason = dnsErr.Error()
		}
	case opErr.Timeout():
		reason = "timed out"
	}
	return &settingError{setting: setting, msg: fmt.Sprintf("cannot reach %s at %s: %s", what, addr, reason), err: err}
}

// urlHost is the host:port of a service URL, without credentials.
func urlHost(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return "the configured address"
}

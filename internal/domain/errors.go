// Package domain holds Dealspot's entities, value types and errors. It imports only the
// standard library.
package domain

import (
	"errors"
	"fmt"
)

// Code classifies an error for clients. Transports map codes to their own vocabulary
// (GraphQL extensions.code) in exactly one place.
type Code string

// Error codes shared by every use case.
const (
	CodeInternal        Code = "INTERNAL"
	CodeUnauthenticated Code = "UNAUTHENTICATED"
	CodeForbidden       Code = "FORBIDDEN"
	CodeBadUserInput    Code = "BAD_USER_INPUT"
	CodeNotFound        Code = "NOT_FOUND"
	CodeConflict        Code = "CONFLICT"
	CodeRateLimited     Code = "RATE_LIMITED"
	CodeSoldOut         Code = "SOLD_OUT"
	CodeAlreadyClaimed  Code = "ALREADY_CLAIMED"
	CodeNotStarted      Code = "NOT_STARTED"
	CodeEnded           Code = "ENDED"
	CodeAlreadyStarted  Code = "ALREADY_STARTED"
	CodeNoOffer         Code = "NO_OFFER"
	CodeOfferExpired    Code = "OFFER_EXPIRED"
	CodeWaitlistFull    Code = "WAITLIST_FULL"
)

// Error is a coded, client-safe error. Message is shown to clients; Err (if any) is the
// internal cause and is never shown.
type Error struct {
	Code    Code
	Message string
	// RetryAfterSeconds is set on RATE_LIMITED errors.
	RetryAfterSeconds int
	// CurrentStatus is set on a CONFLICT about a transition: the status the thing is in.
	CurrentStatus string
	// TriesLeft is set on a wrong login code or password: how many more wrong guesses
	// the caller has before the code is discarded or the password login locked.
	TriesLeft *int
	Err       error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return string(e.Code) + ": " + e.Message + ": " + e.Err.Error()
	}
	return string(e.Code) + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, &Error{Code: X}) match any error of code X, so sentinels compare
// by code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && (t.Message == "" || t.Message == e.Message)
}

// Errorf builds a coded error with a client-safe message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// StatusConflict is the CONFLICT of a transition that status does not allow.
func StatusConflict(status OrderStatus, format string, args ...any) *Error {
	e := Errorf(CodeConflict, format, args...)
	e.CurrentStatus = string(status)
	return e
}

// WithTriesLeft sets e.TriesLeft to n and returns e.
func (e *Error) WithTriesLeft(n int) *Error {
	e.TriesLeft = &n
	return e
}

// ErrorCode returns the code of err, or CodeInternal when err carries none.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// Sentinels for errors.Is checks.
var (
	ErrNotFound        = &Error{Code: CodeNotFound}
	ErrConflict        = &Error{Code: CodeConflict}
	ErrUnauthenticated = &Error{Code: CodeUnauthenticated}
	ErrForbidden       = &Error{Code: CodeForbidden}
	ErrBadInput        = &Error{Code: CodeBadUserInput}
	ErrRateLimited     = &Error{Code: CodeRateLimited}
)

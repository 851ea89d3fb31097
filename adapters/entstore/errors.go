package entstore

import (
	"github.com/dealspot/dealspot/ent"
	"github.com/dealspot/dealspot/internal/domain"
)

// translate turns ent's errors into domain errors at the edge of the adapter: a missing
// row becomes NOT_FOUND, a violated unique index CONFLICT, a failed schema validator
// BAD_USER_INPUT (when onConstraint is set). Anything else is returned as it is; callers
// wrap the result with what they were doing.
func translate(err error, what string, onConstraint domain.Code, constraintMsg string) error {
	switch {
	case err == nil:
		return nil
	case ent.IsNotFound(err):
		return &domain.Error{Code: domain.CodeNotFound, Message: what + " not found", Err: err}
	case ent.IsConstraintError(err) && onConstraint != "":
		return &domain.Error{Code: onConstraint, Message: constraintMsg, Err: err}
	case ent.IsValidationError(err):
		return &domain.Error{Code: domain.CodeBadUserInput, Message: "invalid " + what, Err: err}
	default:
		return err
	}
}

// notFound is translate for reads, where a constraint cannot fail.
func notFound(err error, what string) error {
	return translate(err, what, "", "")
}

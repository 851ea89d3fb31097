package domain

import "slices"

// Codes that only the transports give: the GraphQL engine, the HTTP server and the
// operation limits. Use cases never return them; they are listed here so that every code
// a client can receive has one home (ClientCodes).
const (
	CodeTimeout                 Code = "TIMEOUT"
	CodeBadRequest              Code = "BAD_REQUEST"
	CodeRequestTooLarge         Code = "REQUEST_TOO_LARGE"
	CodeParseFailed             Code = "GRAPHQL_PARSE_FAILED"
	CodeValidationFailed        Code = "GRAPHQL_VALIDATION_FAILED"
	CodeDepthLimitExceeded      Code = "DEPTH_LIMIT_EXCEEDED"
	CodeAliasLimitExceeded      Code = "ALIAS_LIMIT_EXCEEDED"
	CodeComplexityLimitExceeded Code = "COMPLEXITY_LIMIT_EXCEEDED"
	CodePersistedQueryNotFound  Code = "PERSISTED_QUERY_NOT_FOUND"
)

// ClientCode is one extensions.code a client can receive and what it tells the client.
type ClientCode struct {
	Code Code
	// Meaning says when the code is given, for the schema and the README.
	Meaning string
	// Extensions names the other extensions the error carries ("" for none).
	Extensions string
}

// clientCodes is the one list of codes. The schema's ErrorCode enum
// (graph/schema/error_codes.graphqls) and the README's table are written from it by
// `make generate` (internal/tools/errorcodes); a test fails when they differ.
var clientCodes = []ClientCode{
	{CodeUnauthenticated, "No valid access token where one is needed: none sent, expired, or its session ended (logout, block, reuse of a rotated refresh token).", ""},
	{CodeForbidden, "Logged in, but the role or the ownership does not allow it (a MERCHANT acting on another's shop), or the account is blocked.", ""},
	{CodeBadUserInput, "An argument is malformed or out of range, or a login code or password is wrong.", "`triesLeft` on a wrong login code or password"},
	{CodeNotFound, "The thing asked for does not exist, or is not the caller's to see.", ""},
	{CodeConflict, "The thing exists already, or its state does not allow the change (an order already paid, used or canceled).", "`currentStatus` on an order transition"},
	{CodeRateLimited, "Too many requests of this kind from this caller or address; try again later.", "`retryAfterSeconds`"},
	{CodeSoldOut, "claimVoucher: the flash sale has no stock left.", ""},
	{CodeAlreadyClaimed, "claimVoucher: the caller already holds an order of this voucher.", ""},
	{CodeNotStarted, "claimVoucher: the sale has not begun yet.", ""},
	{CodeEnded, "claimVoucher, remindMe, cancelReminder: the sale is over.", ""},
	{CodeAlreadyStarted, "remindMe, cancelReminder: the sale has begun (claim it now).", ""},
	{CodeNoOffer, "acceptOffer, declineOffer: no returned unit is held for the caller on this sale.", ""},
	{CodeOfferExpired, "acceptOffer: the unit held for the caller was passed on to the next in line (its WAITLIST_OFFER_TTL ran out, or it was declined).", ""},
	{CodeWaitlistFull, "joinWaitlist: the sale's line holds WAITLIST_MAX_PER_SALE people already.", ""},
	{CodeInternal, "The server failed; the details are logged with the request id (X-Request-Id), never shown.", ""},
	{CodeTimeout, "The operation ran longer than GRAPHQL_EXEC_TIMEOUT.", ""},
	{CodeParseFailed, "The GraphQL document does not parse.", ""},
	{CodeValidationFailed, "The document does not validate against the schema, or holds too many fragments.", ""},
	{CodeDepthLimitExceeded, "The operation nests deeper than GRAPHQL_MAX_DEPTH.", ""},
	{CodeAliasLimitExceeded, "The operation has more aliased fields than GRAPHQL_MAX_ALIASES.", ""},
	{CodeComplexityLimitExceeded, "The operation costs more than GRAPHQL_MAX_COMPLEXITY.", ""},
	{CodePersistedQueryNotFound, "An automatic persisted query's hash the server does not know: send the query's text with it.", ""},
	{CodeBadRequest, "The transport could not take the request: not JSON, a wrong method or content type, a mutation over GET, a bad persisted-query extension.", ""},
	{CodeRequestTooLarge, "The request URL or body is over its size limit (HTTP_MAX_BODY_BYTES for a body).", "`maxBytes`"},
}

// ClientCodes returns every extensions.code a client can receive, in the order the
// schema and the README list them: the use cases' codes first, then the transports'.
func ClientCodes() []ClientCode { return slices.Clone(clientCodes) }

package app

import "github.com/dealspot/dealspot/internal/app/auth"

// AccountCommands are the login and account use cases a client may call.
type AccountCommands struct {
	SendLoginCode *auth.SendLoginCode
	Login         *auth.Login
	// LoginWithPassword and SetPassword: a password beside the codes.
	LoginWithPassword *auth.LoginWithPassword
	SetPassword       *auth.SetPassword
	Refresh           *auth.Refresh
	Logout            *auth.Logout
	// SetUserBlocked and SetUserRole are the administrators' versions, by user id.
	SetUserBlocked *auth.SetUserBlocked
	SetUserRole    *auth.SetUserRole
}

// AccountQueries read accounts and sessions.
type AccountQueries struct {
	// Authenticate checks an access token (every authenticated request).
	Authenticate *auth.Authenticate
	CurrentUser  *auth.CurrentUser
}

// AccountOperations are the operator's account actions, by phone number.
type AccountOperations struct {
	GrantAdmin  *auth.GrantAdmin
	EndSessions *auth.EndSessions
	BlockUser   *auth.BlockUser
}

// Account sorts the login use cases into what a client may call and what the operator
// runs.
func Account(s *auth.Service) (AccountCommands, AccountQueries, AccountOperations) {
	return AccountCommands{
			SendLoginCode: s.SendLoginCode, Login: s.Login, Refresh: s.Refresh, Logout: s.Logout,
			LoginWithPassword: s.LoginWithPassword, SetPassword: s.SetPassword,
			SetUserBlocked: s.SetUserBlocked, SetUserRole: s.SetUserRole,
		},
		AccountQueries{Authenticate: s.Authenticate, CurrentUser: s.CurrentUser},
		AccountOperations{GrantAdmin: s.GrantAdmin, EndSessions: s.EndSessions, BlockUser: s.BlockUser}
}

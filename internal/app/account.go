package app

// AccountCommands are the login and account use cases a client may call.
type AccountCommands struct{}

// AccountQueries read accounts and sessions.
type AccountQueries struct{}

// AccountOperations are the operator's account actions.
type AccountOperations struct{}

package app

// SocialCommands are the social use cases that change state.
type SocialCommands struct{}

// SocialQueries read blogs, follows, feeds, sign-ins and visitors.
type SocialQueries struct{}

// SocialOperations are the fan-out worker, the rebuilders and the legacy imports.
type SocialOperations struct{}

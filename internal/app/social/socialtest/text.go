package socialtest

// HostileText holds characters no user-facing text may carry: a control character and
// the bidi overrides and isolates that make text read differently from what it says.
var HostileText = map[string]string{
	"escape":                 "a\x1b[2Jb",
	"NUL":                    "a\x00b",
	"C1 control":             "a\u0085b",
	"right-to-left override": "gpj.\u202eexe",
	"left-to-right isolate":  "a\u2066b\u2069",
}

// SingleLineOnly are fine in a body of text but not in a one-line field.
var SingleLineOnly = map[string]string{
	"newline":             "a\nb",
	"tab":                 "a\tb",
	"right-to-left mark":  "a\u200fb",
	"paragraph separator": "a\u2029b",
}

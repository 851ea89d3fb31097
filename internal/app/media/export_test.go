package media

// SetDecodeHooks has u call waiting before an upload asks for the decode budget, start
// when it has it and is about to decode, and end when the decode is over, each with the
// bytes the decode is charged.
func SetDecodeHooks(u *Upload, waiting, start, end func(bytes int64)) {
	u.hooks = decodeHooks{waiting: waiting, start: start, end: end}
}

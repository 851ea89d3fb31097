package notes

// ValidBlog checks and normalises a blog's input, for the tests outside the package.
var ValidBlog = validBlog

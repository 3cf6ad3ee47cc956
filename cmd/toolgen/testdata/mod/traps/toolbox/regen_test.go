package toolbox

// go generate runs the lines of test files too.

//go:generate sh -c "echo a test file runs too"

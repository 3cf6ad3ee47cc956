// Package bench compares toolreg's generated dispatch with hand-written
// code and with the typed tools of other Go agent libraries. It is its own
// module so that those libraries never enter toolreg's dependencies; see
// BENCHMARKS.md at the root of the repository and run.sh here.
package bench

//go:generate go run github.com/toolreg/toolreg/cmd/toolgen

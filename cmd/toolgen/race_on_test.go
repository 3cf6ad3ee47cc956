//go:build race

package main

// underRace reports whether the tests run under the race detector.
const underRace = true

//go:build !race

package audit

// underRace reports whether the tests run under the race detector.
const underRace = false

//go:build !race

package audit

// raceEnabled is true in race-detector builds, as in package sandbox.
const raceEnabled = false

//go:build !race

package sandbox

// raceEnabled is true in race-detector builds, whose shadow memory a
// data limit would count.
const raceEnabled = false

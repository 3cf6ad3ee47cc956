//go:build !race

package main

// raceEnabled is true in race-detector builds, as in package sandbox.
const raceEnabled = false

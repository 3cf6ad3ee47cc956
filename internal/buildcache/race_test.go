//go:build race

package buildcache

func init() { raceEnabled = true }

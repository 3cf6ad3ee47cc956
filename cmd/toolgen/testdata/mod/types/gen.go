// Package types is a registry whose tools take the ordinary Go types
// beyond strings, numbers, slices and structs: time.Duration, sent as a
// Go duration string with bounds, and time.Time, sent in RFC 3339.
package types

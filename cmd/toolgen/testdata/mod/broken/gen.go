// Package broken has a tool package that does not compile.
package broken

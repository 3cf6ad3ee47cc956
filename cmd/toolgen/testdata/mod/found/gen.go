// Package found is a registry whose tool package holds the cases that
// TestInvariant and the issue reports found: results of every JSON shape,
// unexported types, (error, error), a name taken from a tool whose file
// is named for it, names the generated code once collided on, and a
// helper file that looks like a tool.
package found

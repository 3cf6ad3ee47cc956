// Package bad is a registry whose tool package breaks the convention once
// per file; only the tools of the good files are generated.
package bad

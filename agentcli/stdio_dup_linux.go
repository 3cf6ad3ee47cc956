package agentcli

import "golang.org/x/sys/unix"

// dupTo makes descriptor to a copy of from (dup2; Linux on arm64 has
// only dup3).
func dupTo(from, to int) error { return unix.Dup3(from, to, 0) }

//go:build unix && !linux

package agentcli

import "golang.org/x/sys/unix"

// dupTo makes descriptor to a copy of from (dup2).
func dupTo(from, to int) error { return unix.Dup2(from, to) }

//go:build !linux

package agentcli

// discardTypeahead does nothing here: what the terminal holds unread
// stays, and only what the line editor had read ahead is dropped.
func discardTypeahead(int) error { return nil }

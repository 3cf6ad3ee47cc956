package toolmcp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolreg/toolreg/registry"
)

// MaxToolName is the longest function name OpenAI-compatible endpoints
// accept; names also match registry.NamePattern.
const MaxToolName = 64

// Separator joins a mounted server's name and a remote tool's name.
const Separator = "__"

// MaxServerName bounds the NAME of a mount spec, leaving room in
// MaxToolName for the tools' own names.
const MaxServerName = 32

// checkServerName reports whether name can prefix tool names.
func checkServerName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty server name")
	case len(name) > MaxServerName:
		return fmt.Errorf("server name %q is longer than %d characters", name, MaxServerName)
	case !registry.ValidName(name):
		return fmt.Errorf("server name %q may only hold letters, digits, _ and -", name)
	case strings.Contains(name, Separator):
		return fmt.Errorf("server name %q must not contain %q", name, Separator)
	case strings.HasSuffix(name, "_"):
		// The tool _x of the server a and the tool x of a_ would both be
		// a___x. Without a final _, the name's part before its first __
		// is always its server, so that no server can offer a tool in
		// another's name space, even after it renames its tools.
		return fmt.Errorf("server name %q must not end in _", name)
	}
	return nil
}

// hashLen is the number of hex digits of the suffix of a shortened name.
const hashLen = 8

// exposedName returns the name under which the remote tool named remote of
// server is offered to the model: server__remote when that is a valid
// function name, and otherwise, deterministically, server__remote with
// every character outside [a-zA-Z0-9_-] replaced by _, cut to fit in
// MaxToolName, and followed by _ and hashLen hex digits of a hash of both
// names. taken reports names already in use; one that is gets a longer
// hash, up to the whole name, and past that a counter: a server chooses
// its tools' names, and so can take every hashed one of another of its
// tools (names whose plain form is valid are handed out first).
func exposedName(server, remote string, taken func(string) bool) string {
	plain := server + Separator + remote
	if registry.ValidName(plain) && !taken(plain) {
		return plain
	}
	sum := sha256.Sum256([]byte(server + "\x00" + remote))
	h := hex.EncodeToString(sum[:])
	base := sanitize(plain)
	fit := func(suffix string) string {
		return base[:min(len(base), MaxToolName-len(suffix))] + suffix
	}
	for n := hashLen; n < MaxToolName && n <= len(h); n += 4 {
		if name := fit("_" + h[:n]); !taken(name) {
			return name
		}
	}
	// Distinct for each i: among more of them than names are taken (the
	// tools of every mounted server and the local ones, far fewer), one
	// is free.
	name := ""
	for i := 2; i < maxCounted; i++ {
		if name = fit("_" + h[:hashLen] + "_" + strconv.Itoa(i)); !taken(name) {
			break
		}
	}
	return name
}

// maxCounted bounds the counters exposedName tries, past the number of
// names that can be taken, so that it stays total whatever taken says.
const maxCounted = 1 << 20

// nameByte reports whether c may be part of a tool name (see
// registry.ValidName).
func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// sanitize replaces each byte of s outside [a-zA-Z0-9_-] with _, so a
// multi-byte character becomes several.
func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !nameByte(c) {
			b[i] = '_'
		}
	}
	return string(b)
}

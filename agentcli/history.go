package agentcli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// stateDir returns the directory where the agent keeps what it remembers
// between runs (line history, conversations): $XDG_STATE_HOME/toolreg, or
// ~/.local/state/toolreg.
func (c *cli) stateDir() (string, error) {
	if d := c.getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "toolreg"), nil
	}
	// The home directory as os.UserHomeDir finds it, from the
	// environment the agent was given.
	home := c.getenv("HOME")
	if runtime.GOOS == "windows" {
		home = c.getenv("USERPROFILE")
	}
	if home == "" {
		return "", errors.New("no directory to keep state in: set XDG_STATE_HOME or HOME")
	}
	return filepath.Join(home, ".local", "state", "toolreg"), nil
}

// maxHistory is how many lines the history keeps.
const maxHistory = 1000

// history is the line history of the conversation on a terminal, kept in
// a file, one line per entry, most recent last. It implements
// golang.org/x/term's History. Lines that begin with a space are not kept,
// as in shells, so a line can be kept out of the file.
type history struct {
	path    string
	entries []string // oldest first
	// paused keeps the lines read while it is set (answers to questions)
	// out of the history.
	paused bool
	// warn reports a failure to write the file, once.
	warn func(error)
}

// loadHistory reads the history at path; a missing file is an empty
// history.
func loadHistory(path string, warn func(error)) (*history, error) {
	h := &history{path: path, warn: warn}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return h, fmt.Errorf("line history: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			h.entries = append(h.entries, l)
		}
	}
	if err := sc.Err(); err != nil {
		return h, fmt.Errorf("line history %s: %w", path, err)
	}
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
		h.rewrite()
	}
	return h, nil
}

// Add records a line typed at the prompt and appends it to the file.
func (h *history) Add(entry string) {
	if h.paused || strings.TrimSpace(entry) == "" || strings.HasPrefix(entry, " ") || strings.ContainsAny(entry, "\r\n") {
		return
	}
	if n := len(h.entries); n > 0 && h.entries[n-1] == entry {
		return
	}
	h.entries = append(h.entries, entry)
	if len(h.entries) > 2*maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
		h.rewrite()
		return
	}
	h.write(func(f *os.File) error {
		_, err := fmt.Fprintln(f, entry)
		return err
	}, os.O_APPEND)
}

// Len returns the number of entries.
func (h *history) Len() int { return len(h.entries) }

// At returns an entry; 0 is the most recent.
func (h *history) At(idx int) string { return h.entries[len(h.entries)-1-idx] }

// rewrite writes the whole history to the file.
func (h *history) rewrite() {
	h.write(func(f *os.File) error {
		_, err := fmt.Fprint(f, strings.Join(h.entries, "\n")+"\n")
		return err
	}, os.O_TRUNC)
}

func (h *history) write(put func(*os.File) error, mode int) {
	if h.path == "" {
		return
	}
	err := os.MkdirAll(filepath.Dir(h.path), 0o700)
	if err == nil {
		var f *os.File
		if f, err = os.OpenFile(h.path, os.O_WRONLY|os.O_CREATE|mode, 0o600); err == nil {
			err = errors.Join(put(f), f.Close())
		}
	}
	if err != nil && h.warn != nil {
		h.warn(fmt.Errorf("line history: %w", err))
		h.warn = nil
		h.path = "" // keep it in memory only
	}
}

package agentcli

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/redact"

	"github.com/toolreg/toolreg/internal/clip"
)

// record is one line of a kept conversation: a message, when it was kept,
// and the model and endpoint of the turn.
type record struct {
	Time    time.Time    `json:"time"`
	Model   string       `json:"model,omitempty"`
	BaseURL string       `json:"base_url,omitempty"`
	Message chat.Message `json:"message"`
}

// convLog keeps the turns of a conversation as JSON lines, one file per
// conversation, in dir. A failure to write is reported once on warn and
// the conversation goes on unkept.
type convLog struct {
	dir            string
	model, baseURL string
	warn           func(error)
	now            func() time.Time
	// redact, when not nil, removes secrets from each line before it is
	// written: a key the model repeats is not kept.
	redact func(string) string
	path   string // "" until the first turn is kept
}

// add appends the messages of a turn.
func (l *convLog) add(msgs []chat.Message) {
	if l.dir == "" || len(msgs) == 0 {
		return
	}
	err := l.append(msgs)
	if err != nil {
		l.warn(fmt.Errorf("not keeping the conversation: %w (-no-log or TOOLREG_NO_LOG=1 stops trying)", err))
		l.dir = ""
	}
}

func (l *convLog) append(msgs []chat.Message) error {
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return err
	}
	now := l.now()
	if l.path == "" {
		l.path = filepath.Join(l.dir, fmt.Sprintf("%s-%d.jsonl", now.UTC().Format("20060102-150405.000"), os.Getpid()))
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	// The endpoint may carry credentials (user:password@, a key in the
	// query), which are not kept either.
	base := l.baseURL
	if l.redact != nil {
		base = l.redact(base)
	}
	base = redact.String(base)
	for _, m := range msgs {
		if err := enc.Encode(record{Time: now, Model: l.model, BaseURL: base, Message: l.clean(m)}); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", l.path, err)
		}
	}
	return errors.Join(w.Flush(), f.Close())
}

// clean returns m with the secrets removed from its text: its content,
// reasoning and tool-call arguments. Redacting the fields, not the JSON
// line, keeps the line valid JSON.
func (l *convLog) clean(m chat.Message) chat.Message {
	if l.redact == nil {
		return m
	}
	m.Content = l.redact(m.Content)
	if m.ReasoningContent != nil {
		r := l.redact(*m.ReasoningContent)
		m.ReasoningContent = &r
	}
	if len(m.ToolCalls) > 0 {
		calls := slices.Clone(m.ToolCalls)
		for i := range calls {
			calls[i].Function.Arguments = l.redact(calls[i].Function.Arguments)
		}
		m.ToolCalls = calls
	}
	return m
}

// restart makes the next turn begin a new file.
func (l *convLog) restart() { l.path = "" }

// keptConv describes one kept conversation.
type keptConv struct {
	path     string
	modified time.Time
	records  []record
}

// maxKeptLine bounds one line of a kept conversation.
const maxKeptLine = 16 << 20

// readKept reads the conversation at path.
func readKept(path string) (keptConv, error) {
	k := keptConv{path: path}
	f, err := os.Open(path)
	if err != nil {
		return k, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		k.modified = fi.ModTime()
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), maxKeptLine)
	for n := 1; sc.Scan(); n++ {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return k, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		k.records = append(k.records, r)
	}
	if err := sc.Err(); err != nil {
		return k, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// messages returns the conversation's messages.
func (k keptConv) messages() []chat.Message {
	out := make([]chat.Message, len(k.records))
	for i, r := range k.records {
		out[i] = r.Message
	}
	return out
}

// keptFiles returns the kept conversations in dir, the most recently
// changed first.
func keptFiles(dir string) ([]keptConv, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []keptConv
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // gone since
		}
		out = append(out, keptConv{path: filepath.Join(dir, e.Name()), modified: fi.ModTime()})
	}
	slices.SortFunc(out, func(a, b keptConv) int {
		return cmp.Or(b.modified.Compare(a.modified), strings.Compare(b.path, a.path))
	})
	return out, nil
}

// conversationsDir is where conversations are kept.
func (c *cli) conversationsDir() (string, error) {
	d, err := c.stateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "conversations"), nil
}

// id returns the ID of the kept conversation: its file's name.
func (k keptConv) id() string { return strings.TrimSuffix(filepath.Base(k.path), ".jsonl") }

// findKept returns the conversation of files that ref names: its number
// in the list (1 is the most recent), or its ID or a prefix of it that
// no other ID has.
func findKept(files []keptConv, ref string) (keptConv, error) {
	if n, err := strconv.Atoi(ref); err == nil && len(ref) <= 4 {
		if n < 1 || n > len(files) {
			return keptConv{}, fmt.Errorf("no conversation %q: want a number from 1 to %d, or an ID, as agent log lists them", ref, len(files))
		}
		return files[n-1], nil
	}
	var found []keptConv
	for _, f := range files {
		if strings.HasPrefix(f.id(), ref) {
			found = append(found, f)
		}
	}
	switch len(found) {
	case 0:
		return keptConv{}, fmt.Errorf("no conversation %q: agent log lists the IDs", ref)
	case 1:
		return found[0], nil
	}
	return keptConv{}, fmt.Errorf("%q names %d conversations (%s, …): give more of the ID", ref, len(found), found[0].id())
}

// runLog is agent log [-n N] [ID], and agent log rm ID…: the kept
// conversations, one of them, or their removal.
func (c *cli) runLog(args []string) int {
	o, pos, code := c.parseFlags("log", args)
	if code >= 0 {
		return code
	}
	dir, err := c.conversationsDir()
	if err != nil {
		fmt.Fprintf(c.stderr, "agent log: %v\n", err)
		return exitFailed
	}
	files, err := keptFiles(dir)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent log: %v\n", err)
		return exitFailed
	}
	if len(pos) > 0 && pos[0] == "rm" {
		return c.removeKept(files, pos[1:])
	}
	switch len(pos) {
	case 0:
		if len(files) == 0 {
			fmt.Fprintf(c.stderr, "agent log: no conversations kept in %s\n", dir)
			return exitOK
		}
		for i, f := range files[:min(len(files), o.count)] {
			k, err := readKept(f.path)
			if err != nil {
				fmt.Fprintf(c.stderr, "agent log: %v\n", err)
				continue
			}
			writeSummary(c.stdout, i+1, k)
		}
		return exitOK
	case 1:
	default:
		fmt.Fprintf(c.stderr, "agent log: want at most one conversation ID or number, got %q\n", pos)
		return exitUsage
	}
	f, err := findKept(files, pos[0])
	if err != nil {
		fmt.Fprintf(c.stderr, "agent log: %v\n", err)
		return exitUsage
	}
	k, err := readKept(f.path)
	if err != nil {
		fmt.Fprintf(c.stderr, "agent log: %v\n", err)
		return exitFailed
	}
	if o.asJSON {
		for _, r := range k.records {
			b, _ := json.Marshal(r) // it was read from JSON
			fmt.Fprintf(c.stdout, "%s\n", clip.JSON(b))
		}
		return exitOK
	}
	writeConversation(c.stdout, k)
	return exitOK
}

// removeKept is agent log rm ID…: it removes the conversations named,
// after checking that each names one.
func (c *cli) removeKept(files []keptConv, refs []string) int {
	if len(refs) == 0 {
		fmt.Fprintln(c.stderr, "agent log rm: want the ID (or number) of the conversation to remove, as agent log lists them")
		return exitUsage
	}
	var gone []keptConv
	for _, ref := range refs {
		f, err := findKept(files, ref)
		if err != nil {
			fmt.Fprintf(c.stderr, "agent log rm: %v\n", err)
			return exitUsage
		}
		gone = append(gone, f)
	}
	for _, f := range gone {
		if err := os.Remove(f.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(c.stderr, "agent log rm: %v\n", err)
			return exitFailed
		}
		fmt.Fprintf(c.stderr, "removed %s\n", f.id())
	}
	return exitOK
}

// writeSummary writes one line about a kept conversation: its number,
// when it was last changed, its model, how many questions it holds and
// the first of them.
func writeSummary(w io.Writer, n int, k keptConv) {
	questions, first, model := 0, "", ""
	for _, r := range k.records {
		if r.Message.Role == chat.RoleUser {
			if questions == 0 {
				first = r.Message.Content
			}
			questions++
		}
		model = cmp.Or(r.Model, model)
	}
	fmt.Fprintf(w, "%3d  %s  %s  %-16s %2d  %s\n", n, k.id(), k.modified.Local().Format("2006-01-02 15:04"), clip.Line(model, 16), questions, clip.Line(first, 60))
}

// writeConversation writes a kept conversation for a person to read,
// without the control characters of what the model, the tools or the
// user wrote, as the session showed it (-json shows it as kept).
func writeConversation(w io.Writer, k keptConv) {
	fmt.Fprintf(w, "# %s\n", k.path)
	names := map[string]string{} // tool call id → tool
	for _, r := range k.records {
		m := r.Message
		switch m.Role {
		case chat.RoleUser:
			fmt.Fprintf(w, "\n> %s\n", strings.ReplaceAll(clip.Printable(m.Content), "\n", "\n> "))
		case chat.RoleAssistant:
			for _, tc := range m.ToolCalls {
				names[tc.ID] = tc.Function.Name
				fmt.Fprintf(w, "→ %s %s\n", toolLabel(tc.Function.Name), clip.Line(tc.Function.Arguments, 120))
			}
			if m.Content != "" {
				fmt.Fprintf(w, "\n%s\n", clip.Printable(m.Content))
			}
		case chat.RoleTool:
			fmt.Fprintf(w, "← %s: %s\n", toolLabel(names[m.ToolCallID]), clip.Line(m.Content, 120))
		}
	}
}

// truncate keeps the first n messages of the conversation in its file and
// drops the rest, as /retry drops the turn it asks again.
func (l *convLog) truncate(n int) {
	if l.dir == "" || l.path == "" {
		return
	}
	k, err := readKept(l.path)
	if err == nil && n < len(k.records) {
		err = writeRecords(l.path, k.records[:n])
	}
	if err != nil {
		l.warn(fmt.Errorf("not keeping the conversation: %w", err))
		l.dir = ""
	}
}

// writeRecords replaces the file at path with records.
func writeRecords(path string, records []record) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, r := range records {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

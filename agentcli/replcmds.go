package agentcli

import (
	"bufio"
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/internal/clip"
)

// lastAnswer returns the text of the model's last answer in msgs, "" if
// there is none.
func lastAnswer(msgs []chat.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if m := msgs[i]; m.Role == chat.RoleAssistant && m.Content != "" {
			return m.Content
		}
	}
	return ""
}

// copied returns the text /copy puts on the clipboard for answer: the
// answer as the terminal showed it, without its control characters and
// secrets. The model wrote it, and a person pastes it where it is read
// as typed: an escape sequence in it (the end of a bracketed paste,
// ESC [201~) would make a shell run the rest at once. Newlines and tabs
// stay, so that code is copied as it is.
func (s *session) copied(answer string) string {
	text := clip.Printable(answer)
	if s.out != nil && s.out.redact != nil {
		text = s.out.redact(text)
	}
	return text
}

// osc52 returns the escape sequence that asks the terminal to put text on
// the clipboard (xterm's OSC 52, which most terminals and tmux with
// set-clipboard on follow).
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}

// writeMarkdown writes a conversation for a person to read, as Markdown:
// each question and answer under a heading, and the tool calls between.
// It is written as the session showed it, without the control characters
// of what the model and the tools wrote (clip.Printable), which would
// drive the terminal of whoever shows the file.
func writeMarkdown(w io.Writer, model string, msgs []chat.Message) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Conversation with %s\n", clip.Line(cmp.Or(model, "the model"), maxLabel))
	names := map[string]string{} // tool call id → tool
	for _, m := range msgs {
		content := clip.Printable(m.Content)
		switch m.Role {
		case chat.RoleUser:
			fmt.Fprintf(bw, "\n## You\n\n%s\n", content)
		case chat.RoleAssistant:
			for _, tc := range m.ToolCalls {
				names[tc.ID] = toolLabel(tc.Function.Name)
				fmt.Fprintf(bw, "\n**Tool call** `%s`\n\n```json\n%s\n```\n", names[tc.ID], clip.Printable(tc.Function.Arguments))
			}
			if content != "" {
				fmt.Fprintf(bw, "\n## Answer\n\n%s\n", content)
			}
		case chat.RoleTool:
			fence := "```"
			for strings.Contains(content, fence) {
				fence += "`"
			}
			fmt.Fprintf(bw, "\n**Result of** `%s`\n\n%s\n%s\n%s\n", names[m.ToolCallID], fence, content, fence)
		}
	}
	return bw.Flush()
}

// saveMarkdown writes the conversation to the file at path as Markdown.
// It writes a regular file of that name, new or replaced, and nothing
// else: a symbolic link there (which a cloned repository may hold, named
// as a person would name their notes, pointing at ~/.bashrc) or a named
// pipe is refused, not followed.
func saveMarkdown(path, model string, msgs []chat.Message) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		what := "not a regular file"
		if fi.Mode()&os.ModeSymlink != 0 {
			what = "a symbolic link"
		}
		return fmt.Errorf("%s is %s; name the file itself", path, what)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	return errors.Join(writeMarkdown(f, model, msgs), f.Close())
}

// edit runs the editor on an empty temporary file and returns what was
// written in it, trimmed.
func (s *session) edit() (string, error) {
	if s.editor == nil {
		return "", errors.New("no terminal to run an editor on")
	}
	f, err := os.CreateTemp("", "agent-message-*.md")
	if err != nil {
		return "", err
	}
	path := f.Name()
	defer os.Remove(path)
	if err := f.Close(); err != nil {
		return "", err
	}
	if err := s.editor(path); err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// runEditor returns the function that runs the person's editor ($VISUAL,
// else $EDITOR, else vi) on a file, on the terminal. The variable is read
// as a shell would, so "code --wait" works.
func runEditor(getenv env, stdin, stdout, stderr *os.File) func(path string) error {
	return func(path string) error {
		ed := cmp.Or(getenv("VISUAL"), getenv("EDITOR"), "vi")
		cmd := exec.Command("/bin/sh", "-c", ed+` "$1"`, "sh", path)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %w", ed, err)
		}
		return nil
	}
}

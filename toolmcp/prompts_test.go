package toolmcp

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/skill"
)

// testSkills are the skills the prompt tests serve.
func testSkills() *skill.Set {
	return skill.MustNewSet(
		skill.Skill{Name: "tidy-notes", Description: "Tidy a page of notes.", Body: "# Tidy notes\n\nSort the lines; keep `code` as it is.\n",
			Files: map[string]string{"references/style.md": "Short lines."}},
		skill.Skill{Name: "count-words", Description: "Count the words of a text with count.", Body: "Call count on the text.\n", AllowedTools: []string{"count"}},
	)
}

// TestPrompts: the skills are listed as prompts, and prompts/get returns a
// skill's body as one user message; an unknown prompt or an argument is an
// error.
func TestPrompts(t *testing.T) {
	t.Parallel()
	srv, err := NewServer(registry.MustNew(testTable()), &ServerOptions{Skills: testSkills()})
	if err != nil {
		t.Fatal(err)
	}
	cs := inMemory(t, srv)
	ctx := context.Background()
	if cs.InitializeResult().Capabilities.Prompts == nil {
		t.Error("the server does not announce prompts")
	}
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatalf("ListPrompts: %v", err)
	}
	var got [][2]string
	for _, p := range list.Prompts {
		got = append(got, [2]string{p.Name, p.Description})
		if len(p.Arguments) > 0 {
			t.Errorf("prompt %s has arguments %v", p.Name, p.Arguments)
		}
	}
	want := [][2]string{{"count-words", "Count the words of a text with count."}, {"tidy-notes", "Tidy a page of notes."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prompts/list (-want +got):\n%s", diff)
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "tidy-notes"})
	if err != nil {
		t.Fatalf("GetPrompt: %v", err)
	}
	type message struct{ Role, Text string }
	var msgs []message
	for _, m := range res.Messages {
		text, _ := m.Content.(*mcp.TextContent)
		if text == nil {
			t.Fatalf("prompts/get: content %T, want text", m.Content)
		}
		msgs = append(msgs, message{string(m.Role), text.Text})
	}
	if res.Description != "Tidy a page of notes." {
		t.Errorf("prompts/get description %q", res.Description)
	}
	wantMsgs := []message{{"user", "# Tidy notes\n\nSort the lines; keep `code` as it is.\n"}}
	if diff := cmp.Diff(wantMsgs, msgs); diff != "" {
		t.Errorf("prompts/get tidy-notes messages (-want +got):\n%s", diff)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "no-such-skill"}); err == nil || !strings.Contains(err.Error(), "no-such-skill") {
		t.Errorf("prompts/get of an unknown prompt: %v, want an error naming it", err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "tidy-notes", Arguments: map[string]string{"x": "y"}}); err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Errorf("prompts/get with an argument: %v, want an error", err)
	}
}

// TestNoPrompts: without skills the server announces no prompts.
func TestNoPrompts(t *testing.T) {
	t.Parallel()
	srv, err := NewServer(registry.MustNew(testTable()), nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := inMemory(t, srv)
	if p := cs.InitializeResult().Capabilities.Prompts; p != nil {
		t.Errorf("a server without skills announces prompts: %+v", p)
	}
	if res, err := cs.ListPrompts(context.Background(), nil); err == nil && len(res.Prompts) > 0 {
		t.Errorf("a server without skills lists prompts: %v", res.Prompts)
	}
}

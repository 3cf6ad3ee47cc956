package skill

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/internal/strictrules"
	"github.com/toolreg/toolreg/registry"
)

func testSet(t *testing.T) *Set {
	t.Helper()
	s, err := NewSet(
		Skill{Name: "zeta", Description: "Last one.", Body: "Do z.\n"},
		Skill{Name: "alpha", Description: "First\none.", Body: "Do a.\n", AllowedTools: []string{"now"},
			Files: map[string]string{"references/b.md": "B", "a.txt": "A"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestValidName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"a", true}, {"disk-triage", true}, {"a1-b2", true}, {strings.Repeat("a", MaxName), true},
		{strings.Repeat("a", MaxName+1), false}, {"", false}, {"-a", false}, {"a-", false}, {"a--b", false},
		{"Disk", false}, {"a_b", false}, {"a b", false}, {"é", false},
	} {
		if got := ValidName(tc.name); got != tc.want {
			t.Errorf("ValidName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestNewSetRefuses(t *testing.T) {
	ok := Skill{Name: "ok", Description: "Fine.", Body: "b"}
	big := func(n int) string { return strings.Repeat("x", n) }
	for _, tc := range []struct {
		name  string
		skill Skill
		want  string
	}{
		{"bad name", Skill{Name: "Bad", Description: "d", Body: "b"}, `name "Bad" does not match`},
		{"no description", Skill{Name: "a", Description: " ", Body: "b"}, "empty description"},
		{"description at limit", Skill{Name: "a", Description: strings.Repeat("é", MaxDescription), Body: "b"}, ""},
		{"description past limit", Skill{Name: "a", Description: strings.Repeat("é", MaxDescription+1), Body: "b"}, "description of 1025 characters"},
		{"no body", Skill{Name: "a", Description: "d"}, "empty body"},
		{"body at limit", Skill{Name: "a", Description: "d", Body: big(MaxBody)}, ""},
		{"body past limit", Skill{Name: "a", Description: "d", Body: big(MaxBody + 1)}, "body of 32769 bytes"},
		{"file at limit", Skill{Name: "a", Description: "d", Body: "b", Files: map[string]string{"f": big(MaxFile)}}, ""},
		{"file past limit", Skill{Name: "a", Description: "d", Body: "b", Files: map[string]string{"f": big(MaxFile + 1)}}, "file f of 65537 bytes"},
		{"binary file", Skill{Name: "a", Description: "d", Body: "b", Files: map[string]string{"f": "\xff"}}, "not UTF-8"},
		{"escaping path", Skill{Name: "a", Description: "d", Body: "b", Files: map[string]string{"../x": "x"}}, `"../x" is not a clean relative path`},
		{"absolute path", Skill{Name: "a", Description: "d", Body: "b", Files: map[string]string{"/x": "x"}}, "not a clean relative path"},
		{"total past limit", Skill{Name: "a", Description: "d", Body: "b", Files: func() map[string]string {
			m := map[string]string{}
			for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "8"} {
				m[k] = big(MaxFile)
			}
			return m
		}()}, "bytes in all, more than 524288"},
		{"duplicate", ok, "the name is taken"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			skills := []Skill{tc.skill}
			if tc.name == "duplicate" {
				skills = append(skills, ok)
			}
			_, err := NewSet(skills...)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("NewSet: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("NewSet error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSet(t *testing.T) {
	s := testSet(t)
	if diff := cmp.Diff([]string{"alpha", "zeta"}, s.Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	k, ok := s.Get("alpha")
	if !ok {
		t.Fatal("Get(alpha) found nothing")
	}
	k.Files["a.txt"] = "changed"
	k.AllowedTools[0] = "changed"
	if again, _ := s.Get("alpha"); again.Files["a.txt"] != "A" || again.AllowedTools[0] != "now" {
		t.Error("a copy from Get shares its maps or slices with the Set")
	}
	if _, ok := s.Get("beta"); ok {
		t.Error("Get(beta) found a skill")
	}
	if got, err := s.File("alpha", "references/b.md"); err != nil || got != "B" {
		t.Errorf("File(alpha, references/b.md) = %q, %v", got, err)
	}
	for _, tc := range []struct{ name, file, want string }{
		{"alpha", "nope.md", `skill alpha has no file "nope.md"; its files: a.txt, references/b.md`},
		{"zeta", "a.txt", `skill zeta has no file "a.txt": it has no files besides its instructions`},
		{"beta", "a.txt", `no skill "beta"; the skills: alpha, zeta`},
	} {
		if _, err := s.File(tc.name, tc.file); err == nil || err.Error() != tc.want {
			t.Errorf("File(%s, %s) error = %v, want %q", tc.name, tc.file, err, tc.want)
		}
	}
	var none *Set
	if none.Len() != 0 || len(none.List()) != 0 {
		t.Error("a nil Set is not empty")
	}
}

func TestTool(t *testing.T) {
	s := testSet(t)
	e := UseSkillEntry(s)
	reg, err := registry.MustNew(&registry.Table{Index: func(string) int { return -1 }}).With(e)
	if err != nil {
		t.Fatalf("registry.With(use_skill): %v", err)
	}
	if e.AllCapabilities() != 0 {
		t.Errorf("use_skill declares capabilities %v", e.AllCapabilities())
	}
	wantDesc := "- alpha: First one.\n- zeta: Last one."
	if !strings.HasSuffix(e.Description, wantDesc) {
		t.Errorf("description %q does not end with the skills %q", e.Description, wantDesc)
	}
	var schema map[string]any
	if err := json.Unmarshal([]byte(e.Parameters), &schema); err != nil {
		t.Fatal(err)
	}
	wantSchema := map[string]any{
		"type": "object", "required": []any{"name"}, "additionalProperties": false,
		"properties": map[string]any{
			"name": map[string]any{"type": "string", "enum": []any{"alpha", "zeta"}, "description": "The skill to load."},
			"file": map[string]any{"type": "string", "description": "A file of the skill to read instead of its instructions, by its path in the skill, such as references/checklist.md."},
		},
	}
	if diff := cmp.Diff(wantSchema, schema); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		args, want string
		bad        bool
	}{
		{args: `{"name":"zeta"}`, want: "Do z.\n"},
		{args: `{"name":"alpha"}`, want: "Do a.\n\n---\nFiles of skill alpha (load one with use_skill and \"file\"): a.txt, references/b.md\n"},
		{args: `{"name":"alpha","file":"references/b.md"}`, want: "B"},
		{args: `{"name":"beta"}`, bad: true, want: `no skill "beta"; the skills: alpha, zeta`},
		{args: `{"name":"alpha","file":"../x"}`, bad: true, want: `skill alpha has no file "../x"; its files: a.txt, references/b.md`},
		{args: `{"name":"alpha","file":""}`, bad: true, want: `has no file ""`},
		{args: `{}`, bad: true, want: "name is required: one of alpha, zeta"},
		{args: `null`, bad: true, want: "not null"},
		{args: `{"name":"zeta","extra":1}`, bad: true, want: `unknown field "extra"`},
		{args: `{"name":"zeta"} {}`, bad: true, want: "unexpected data after the JSON object"},
		{args: `{"name":3}`, bad: true, want: "cannot unmarshal number"},
	} {
		res := reg.Call(context.Background(), ToolName, tc.args)
		if tc.bad {
			if !errors.Is(res.Err, registry.ErrArguments) || !strings.Contains(res.Text, tc.want) {
				t.Errorf("use_skill %s = %q, %v; want an argument error containing %q", tc.args, res.Text, res.Err, tc.want)
			}
			if _, err := e.Bind(tc.args); err == nil {
				t.Errorf("Bind(%s) = nil error, want the error Call gives", tc.args)
			}
			continue
		}
		if res.Err != nil {
			t.Errorf("use_skill %s: %v", tc.args, res.Err)
			continue
		}
		if diff := cmp.Diff(tc.want, res.Text); diff != "" {
			t.Errorf("use_skill %s (-want +got):\n%s", tc.args, diff)
		}
	}
}

// TestToolStrict checks use_skill's strict schema against strict mode's
// documented rules, and a strict call that sends null for the file.
func TestToolStrict(t *testing.T) {
	e := UseSkillEntry(testSet(t))
	if problems := strictrules.Check(e.StrictParameters); len(problems) > 0 {
		t.Errorf("the strict schema breaks strict mode's rules:\n%s", strings.Join(problems, "\n"))
	}
	reg, err := registry.MustNew(&registry.Table{Index: func(string) int { return -1 }}).With(e)
	if err != nil {
		t.Fatal(err)
	}
	strict := reg.WithStrict(true)
	if !strict.Specs()[0].Function.Strict {
		t.Error("the strict registry does not send use_skill as strict")
	}
	if res := strict.Call(context.Background(), ToolName, `{"name":"zeta","file":null}`); res.Text != "Do z.\n" {
		t.Errorf("strict use_skill with a null file = %q (%v), want the instructions", res.Text, res.Err)
	}
	if res := strict.Call(context.Background(), ToolName, `{"name":null,"file":null}`); !errors.Is(res.Err, registry.ErrArguments) {
		t.Errorf("strict use_skill with a null name = %q, want an argument error", res.Text)
	}
}

package main

import (
	"bytes"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/google/go-cmp/cmp"

	"github.com/toolreg/toolreg/skill"
)

// skillTools are the tools the skills of testdata/skills may name.
var skillTools = []string{"disk_usage", "now", "word_count"}

// TestSkillsGolden checks the skills of testdata/skills (see its
// README.md): the warnings, with their positions, and the skills kept.
func TestSkillsGolden(t *testing.T) {
	base := filepath.Join("testdata", "skills")
	st, ws, err := loadSkills(base, "skills", skillTools)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{
		"want_warnings.txt": strings.Join(warningLines(dedup(ws)), "\n") + "\n",
		"want_skills.txt":   describeSkills(st.Skills),
	}
	for _, name := range []string{"want_warnings.txt", "want_skills.txt"} {
		golden := filepath.Join(base, name)
		if *update {
			if err := os.WriteFile(golden, []byte(got[name]), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), got[name]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", golden, diff)
		}
	}
}

// describeSkills writes what the golden file want_skills.txt holds.
func describeSkills(skills []skill.Skill) string {
	var b strings.Builder
	for _, k := range skills {
		fmt.Fprintf(&b, "%s (%s): %d-character description; license %q; compatibility %q; allowed tools %q; metadata %v; files %q; body %d bytes, first line %q\n",
			k.Name, k.Source, len([]rune(k.Description)), k.License, k.Compatibility, k.AllowedTools, k.Metadata, k.FileNames(), len(k.Body), strings.SplitN(k.Body, "\n", 2)[0])
	}
	return b.String()
}

// TestSkillsNone: without a skills directory there is no skill table and
// no Skills function, so registries without skills do not change.
func TestSkillsNone(t *testing.T) {
	st, ws, err := loadSkills(t.TempDir(), "skills", nil)
	if st != nil || ws != nil || err != nil {
		t.Fatalf("loadSkills of a directory without skills = %v, %v, %v; want nil, nil, nil", st, ws, err)
	}
	f := jen.NewFile("p")
	emitSkills(f, st)
	if strings.Contains(f.GoString(), "Skills") {
		t.Errorf("emitSkills wrote code for no skill table:\n%s", f.GoString())
	}
}

// writeSkill writes a skill folder under dir/skills/name with SKILL.md
// and files (path to content).
func writeSkill(t *testing.T, dir, name, skillMD string, files map[string]string) {
	t.Helper()
	all := map[string]string{"SKILL.md": skillMD}
	for p, text := range files {
		all[p] = text
	}
	writeTree(t, filepath.Join(dir, "skills", name), all)
}

// TestSkillsLimits checks the size limits at, below and past each, and
// symbolic links, in skills written to a temporary directory.
func TestSkillsLimits(t *testing.T) {
	md := func(name, body string) string {
		return "---\nname: " + name + "\ndescription: Limits.\n---\n" + body
	}
	x := func(n int) string { return strings.Repeat("x", n) }
	dir := t.TempDir()
	writeSkill(t, dir, "body-at", md("body-at", x(skill.MaxBody)), map[string]string{})
	writeSkill(t, dir, "body-past", md("body-past", x(skill.MaxBody+1)), map[string]string{})
	writeSkill(t, dir, "file-at", md("file-at", "b"), map[string]string{"f.md": x(skill.MaxFile)})
	writeSkill(t, dir, "file-past", md("file-past", "b"), map[string]string{"f.md": x(skill.MaxFile + 1)})
	// With its body of one byte, total-at is skill.MaxTotal bytes in all
	// and total-past one more.
	total := map[string]string{}
	for i := range skill.MaxTotal / skill.MaxFile {
		total[fmt.Sprintf("f%d.md", i)] = x(skill.MaxFile)
	}
	writeSkill(t, dir, "total-past", md("total-past", "b"), total)
	total["f0.md"] = x(skill.MaxFile - 1)
	writeSkill(t, dir, "total-at", md("total-at", "b"), total)
	compat := func(name string, n int) string {
		return "---\nname: " + name + "\ndescription: Limits.\ncompatibility: " + strings.Repeat("é", n) + "\n---\nb"
	}
	writeSkill(t, dir, "compat-at", compat("compat-at", skill.MaxCompatibility), map[string]string{})
	writeSkill(t, dir, "compat-past", compat("compat-past", skill.MaxCompatibility+1), map[string]string{})
	many := map[string]string{}
	for i := range skill.MaxFiles + 1 {
		many[fmt.Sprintf("f%02d.md", i)] = "y"
	}
	writeSkill(t, dir, "files-past", md("files-past", "b"), many)
	delete(many, "f00.md")
	writeSkill(t, dir, "files-at", md("files-at", "b"), many)
	writeSkill(t, dir, "linked", md("linked", "See [it](it.md)."), map[string]string{})
	if err := os.Symlink(filepath.Join(dir, "skills", "file-at", "f.md"), filepath.Join(dir, "skills", "linked", "it.md")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "skills", "body-at"), filepath.Join(dir, "skills", "alias")); err != nil {
		t.Fatal(err)
	}
	st, ws, err := loadSkills(dir, "skills", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"skills/alias:1:1: the skill folder is a symbolic link: skills are compiled from the repository's own files",
		"skills/body-past/SKILL.md:5:1: the body is 32769 bytes, more than the limit of 32768 (32 KiB): move details to files in references/",
		"skills/compat-past/SKILL.md:4:16: compatibility is 501 characters, more than 500",
		"skills/file-past/SKILL.md:1:1: f.md is 65537 bytes, more than the limit of 65536 (64 KiB) for a file of a skill",
		"skills/files-past/SKILL.md:1:1: the skill has 65 files besides SKILL.md, more than the limit of 64",
		"skills/linked/SKILL.md:1:1: it.md is a symbolic link: a skill's files are compiled from the skill folder itself",
		"skills/linked/SKILL.md:5:10: link it.md names no file of the skill folder that toolgen compiled in",
		"skills/total-past/SKILL.md:1:1: the skill is 524289 bytes in all (body and files), more than the limit of 524288 (512 KiB)",
	}
	if diff := cmp.Diff(want, warningLines(dedup(ws))); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	var kept []string
	for _, k := range st.Skills {
		kept = append(kept, k.Name)
	}
	if diff := cmp.Diff([]string{"body-at", "compat-at", "file-at", "files-at", "total-at"}, kept); diff != "" {
		t.Errorf("skills kept (-want +got):\n%s", diff)
	}
	if _, err := skill.NewSet(st.Skills...); err != nil {
		t.Errorf("the skills toolgen kept fail skill.NewSet: %v", err)
	}
}

// TestTextCode: the generated expression of a text is a constant equal to
// the text, whatever characters it holds.
func TestTextCode(t *testing.T) {
	for _, s := range []string{
		"", "plain", "`", "a `b` c", "``", "line\r\nline", "\x00nul", "\uFEFFbom", "é`\r`\uFEFF", "tail`",
	} {
		var buf bytes.Buffer
		if err := jen.Add(textCode(s)).Render(&buf); err != nil {
			t.Fatalf("render %q: %v", s, err)
		}
		tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, buf.String())
		if err != nil {
			t.Fatalf("%q: generated %s: %v", s, buf.String(), err)
		}
		if got := constant.StringVal(tv.Value); got != s {
			t.Errorf("generated %s is %q, want %q", buf.String(), got, s)
		}
	}
}

// TestTextCodeParts checks the literals textCode writes: raw strings for
// the runs of ordinary text, an interpreted one for each run of special
// characters, and no empty raw string before or after one.
func TestTextCodeParts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "`plain`"},
		{"`x", "\"`\" + `x`"},
		{"x`", "`x` + \"`\""},
		{"a`b", "`a` + \"`\" + `b`"},
		{"``", "\"``\""},
		{"\r\n", "\"\\r\" + `\n`"},
	} {
		var buf bytes.Buffer
		if err := jen.Add(textCode(tc.in)).Render(&buf); err != nil {
			t.Fatalf("render %q: %v", tc.in, err)
		}
		if got := buf.String(); got != tc.want {
			t.Errorf("textCode(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestSkillDictOptional checks that a skill's literal names its optional
// fields exactly when they hold something: empty lists and maps are left
// out, as a skill read from a SKILL.md without them is.
func TestSkillDictOptional(t *testing.T) {
	render := func(k skill.Skill) string {
		t.Helper()
		var buf bytes.Buffer
		if err := jen.Qual(skillPath, "Skill").Values(skillDict(&k)).Render(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	bare := "skill.Skill{\n\tBody:        `b`,\n\tDescription: \"d\",\n\tName:        \"n\",\n\tSource:      \"s\",\n}"
	for name, k := range map[string]skill.Skill{
		"nothing optional": {Name: "n", Description: "d", Source: "s", Body: "b"},
		"empty lists and maps": {Name: "n", Description: "d", Source: "s", Body: "b",
			AllowedTools: []string{}, Metadata: map[string]string{}, Files: map[string]string{}},
	} {
		if diff := cmp.Diff(bare, render(k)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	full := skill.Skill{Name: "n", Description: "d", Source: "s", Body: "b", License: "MIT", Compatibility: "any",
		AllowedTools: []string{"now"}, Metadata: map[string]string{"k": "v"}, Files: map[string]string{"references/a.md": "x"}}
	want := "skill.Skill{\n\tAllowedTools:  []string{\"now\"},\n\tBody:          `b`,\n\tCompatibility: \"any\",\n\tDescription:   \"d\",\n" +
		"\tFiles:         map[string]string{\"references/a.md\": `x`},\n\tLicense:       \"MIT\",\n\tMetadata:      map[string]string{\"k\": \"v\"},\n" +
		"\tName:          \"n\",\n\tSource:        \"s\",\n}"
	if diff := cmp.Diff(want, render(full)); diff != "" {
		t.Errorf("every field (-want +got):\n%s", diff)
	}
}

package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/toolreg/toolreg/internal/audit"
	"github.com/toolreg/toolreg/internal/nearest"
	"github.com/toolreg/toolreg/skill"
)

// skillsDir is the directory of skills, beside the output file: one
// folder per skill, each with a SKILL.md.
const skillsDir = "skills"

// skillTable is what loadSkills found: the skills that passed every check,
// sorted by name, for the emitter.
type skillTable struct {
	Dir    string // the skills directory, relative to the output's directory
	Skills []skill.Skill
}

// loadSkills reads and checks the skills in dir (relative to base, as are
// the positions of the warnings). tools are the names of the tools the
// registry holds, which allowed-tools may name. A skill with a warning is
// left out; the others are kept. It returns nil, and no warnings, when
// dir does not exist.
func loadSkills(base, dir string, tools []string) (*skillTable, []diagnostic, error) {
	entries, err := os.ReadDir(filepath.Join(base, dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("skills: %w", err)
	}
	st := &skillTable{Dir: filepath.ToSlash(dir)}
	var all []diagnostic
	for _, e := range entries {
		name := e.Name()
		folder := path.Join(st.Dir, name)
		switch {
		case strings.HasPrefix(name, "."):
			continue
		case e.Type()&fs.ModeSymlink != 0:
			all = append(all, diagnostic{Pos: token.Position{Filename: folder, Line: 1, Column: 1},
				Msg: "the skill folder is a symbolic link: skills are compiled from the repository's own files"})
			continue
		case !e.IsDir():
			continue // a README beside the skills, say
		}
		l := &skillLoader{base: base, folder: folder, name: name, tools: tools}
		k := l.load()
		if len(l.warnings) > 0 {
			all = append(all, l.warnings...)
			continue
		}
		if err := k.Check(); err != nil {
			// The checks above cover skill.Check's; this is a backstop.
			all = append(all, diagnostic{Pos: token.Position{Filename: l.file(), Line: 1, Column: 1}, Msg: err.Error()})
			continue
		}
		st.Skills = append(st.Skills, k)
	}
	return st, all, nil
}

// skillLoader reads and checks one skill folder, collecting warnings.
type skillLoader struct {
	base, folder, name string
	tools              []string
	warnings           []diagnostic
	// offset is the number of the line before the front matter's first.
	offset int
}

func (l *skillLoader) file() string { return path.Join(l.folder, "SKILL.md") }

// warn records a warning at line:col of SKILL.md.
func (l *skillLoader) warn(line, col int, format string, args ...any) {
	l.warnings = append(l.warnings, diagnostic{Pos: token.Position{Filename: l.file(), Line: line, Column: col}, Msg: fmt.Sprintf(format, args...)})
}

// warnAt records a warning at a node of the front matter.
func (l *skillLoader) warnAt(n *yaml.Node, format string, args ...any) {
	l.warn(n.Line+l.offset, n.Column, format, args...)
}

// load reads the skill; l.warnings says whether it may be kept.
func (l *skillLoader) load() skill.Skill {
	k := skill.Skill{Source: l.file()}
	abs := filepath.Join(l.base, filepath.FromSlash(l.file()))
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		l.warnings = append(l.warnings, diagnostic{Pos: token.Position{Filename: l.folder, Line: 1, Column: 1},
			Msg: "the skill folder has no SKILL.md"})
		return k
	case err != nil:
		l.warn(1, 1, "%v", err)
		return k
	case !fi.Mode().IsRegular():
		l.warn(1, 1, "SKILL.md is not a regular file (a symbolic link?)")
		return k
	}
	data, err := audit.ReadRegular(abs)
	if err != nil {
		l.warn(1, 1, "%v", err)
		return k
	}
	if !utf8.Valid(data) {
		l.warn(1, 1, "SKILL.md is not UTF-8 text")
		return k
	}
	text := strings.TrimPrefix(string(data), "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	front, body, bodyLine, ok := splitFrontMatter(text)
	if !ok {
		l.warn(1, 1, "SKILL.md does not begin with YAML front matter between two lines of ---")
		return k
	}
	l.offset = 1
	l.frontMatter(front, &k)
	k.Body = body
	switch {
	case strings.TrimSpace(body) == "":
		l.warn(bodyLine, 1, "the body is empty: a skill's instructions follow its front matter")
	case len(body) > skill.MaxBody:
		l.warn(bodyLine, 1, "the body is %d bytes, more than the limit of %d (%d KiB): move details to files in references/", len(body), skill.MaxBody, skill.MaxBody>>10)
	}
	k.Files = l.files()
	l.links(body, bodyLine, k.Files)
	k.Body = strings.TrimLeft(body, "\n") // the blank line after the front matter
	total := len(body)
	for _, t := range k.Files {
		total += len(t)
	}
	if total > skill.MaxTotal {
		l.warn(1, 1, "the skill is %d bytes in all (body and files), more than the limit of %d (%d KiB)", total, skill.MaxTotal, skill.MaxTotal>>10)
	}
	return k
}

// splitFrontMatter splits a SKILL.md into its front matter and its body,
// and returns the number of the body's first line.
func splitFrontMatter(text string) (front, body string, bodyLine int, ok bool) {
	first, rest, found := strings.Cut(text, "\n")
	if !found || strings.TrimRight(first, " \t") != "---" {
		return "", "", 0, false
	}
	line := 2
	var b strings.Builder
	for rest != "" {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		line++
		if strings.TrimRight(l, " \t") == "---" {
			return b.String(), rest, line, true
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return "", "", 0, false
}

// yamlLine finds the line a yaml.v3 error message begins with.
var yamlLine = regexp.MustCompile(`^line (\d+): `)

// frontMatter checks the front matter and fills k from it.
func (l *skillLoader) frontMatter(front string, k *skill.Skill) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(front), &doc); err != nil {
		line, msg := 1, strings.TrimPrefix(err.Error(), "yaml: ")
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = msg[len(m[0]):] // the position says where
		}
		l.warn(line+l.offset, 1, "front matter: %s", msg)
		return
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		l.warn(2, 1, "the front matter is not a YAML mapping of name, description and the other fields")
		return
	}
	m := doc.Content[0]
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i], m.Content[i+1]
		if prev, dup := seen[key.Value]; dup {
			l.warnAt(key, "%s is given twice (first at line %d)", key.Value, prev.Line+l.offset)
			continue
		}
		seen[key.Value] = key
		switch key.Value {
		case "name":
			if l.str(key, val, &k.Name) {
				l.checkName(val, k.Name)
			}
		case "description":
			if l.str(key, val, &k.Description) {
				switch n := utf8.RuneCountInString(k.Description); {
				case strings.TrimSpace(k.Description) == "":
					l.warnAt(val, "description is empty: say what the skill does and when to use it")
				case n > skill.MaxDescription:
					l.warnAt(val, "description is %d characters, more than %d", n, skill.MaxDescription)
				}
			}
		case "license":
			l.str(key, val, &k.License)
		case "compatibility":
			if l.str(key, val, &k.Compatibility) {
				if n := utf8.RuneCountInString(k.Compatibility); n > skill.MaxCompatibility {
					l.warnAt(val, "compatibility is %d characters, more than %d", n, skill.MaxCompatibility)
				}
			}
		case "allowed-tools":
			k.AllowedTools = l.allowedTools(val)
		case "metadata":
			k.Metadata = l.metadata(val)
		default:
			l.warnAt(key, "unknown front-matter field %q: want name, description, license, compatibility, allowed-tools or metadata", key.Value)
		}
	}
	for _, f := range []string{"name", "description"} {
		if seen[f] == nil {
			l.warn(2, 1, "the front matter has no %s", f)
		}
	}
}

// str reads a string field; false, with a warning, when val is not one.
func (l *skillLoader) str(key, val *yaml.Node, dst *string) bool {
	if val.Kind != yaml.ScalarNode || val.Tag != "!!str" {
		l.warnAt(val, "%s must be a string", key.Value)
		return false
	}
	*dst = val.Value
	return true
}

func (l *skillLoader) checkName(val *yaml.Node, name string) {
	switch {
	case !skill.ValidName(name):
		l.warnAt(val, "name %q must be 1 to %d lowercase letters, digits and hyphens, with no hyphen first, last or doubled", name, skill.MaxName)
	case name != l.name:
		l.warnAt(val, "name %q is not the name of the skill's folder, %q", name, l.name)
	}
}

// allowedTools reads allowed-tools, a list of tool names or one string of
// names separated by spaces or commas; each must be a tool of the
// registry.
func (l *skillLoader) allowedTools(val *yaml.Node) []string {
	type named struct {
		name string
		at   *yaml.Node
	}
	var list []named
	switch {
	case val.Kind == yaml.ScalarNode && val.Tag == "!!str":
		for _, f := range strings.FieldsFunc(val.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
			list = append(list, named{f, val})
		}
	case val.Kind == yaml.SequenceNode:
		for _, it := range val.Content {
			if it.Kind != yaml.ScalarNode || it.Tag != "!!str" {
				l.warnAt(it, "allowed-tools: each item must be a tool name")
				continue
			}
			list = append(list, named{it.Value, it})
		}
	default:
		l.warnAt(val, "allowed-tools must be a list of tool names, or one string of names separated by spaces")
		return nil
	}
	var out []string
	for _, n := range list {
		if !slices.Contains(l.tools, n.name) {
			l.warnAt(n.at, "allowed-tools names %q, which is not a tool of this registry; %s", n.name, toolHint(l.tools, n.name))
			continue
		}
		if !slices.Contains(out, n.name) {
			out = append(out, n.name)
		}
	}
	return out
}

// maxListedTools is how many tools a warning about an unknown tool name
// lists whole; past it, the warning names the nearest tool, if one is
// near, and how many there are.
const maxListedTools = 12

// toolHint is the end of a warning about name, which is not one of tools:
// the tools, or past maxListedTools the nearest of them.
func toolHint(tools []string, name string) string {
	if len(tools) <= maxListedTools {
		return "the tools: " + strings.Join(tools, ", ")
	}
	if near := nearest.Word(tools, name); near != "" {
		return fmt.Sprintf("did you mean %q? (one of %d tools)", near, len(tools))
	}
	return fmt.Sprintf("none of its %d tools has a name near it", len(tools))
}

// metadata reads the metadata map, of strings to strings.
func (l *skillLoader) metadata(val *yaml.Node) map[string]string {
	if val.Kind != yaml.MappingNode {
		l.warnAt(val, "metadata must be a mapping of names to strings")
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(val.Content); i += 2 {
		k, v := val.Content[i], val.Content[i+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			l.warnAt(k, "metadata: %q must map to a string", k.Value)
			continue
		}
		if _, dup := out[k.Value]; dup {
			l.warnAt(k, "metadata: %s is given twice", k.Value)
			continue
		}
		out[k.Value] = v.Value
	}
	return out
}

// files reads every file of the skill folder other than SKILL.md and
// those whose names begin with a dot. A symbolic link, a file that is not
// UTF-8 text or is past the size limit is a warning.
func (l *skillLoader) files() map[string]string {
	root := filepath.Join(l.base, filepath.FromSlash(l.folder))
	out := map[string]string{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			l.warn(1, 1, "%s: %v", rel, err)
			return nil
		}
		if p == root {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l.warn(1, 1, "%s is a symbolic link: a skill's files are compiled from the skill folder itself", rel)
			return nil
		case d.IsDir():
			return nil
		case rel == "SKILL.md":
			return nil
		case !d.Type().IsRegular():
			l.warn(1, 1, "%s is not a regular file", rel)
			return nil
		}
		data, err := audit.ReadRegular(p)
		switch {
		case err != nil:
			l.warn(1, 1, "%s: %v", rel, err)
		case len(data) > skill.MaxFile:
			l.warn(1, 1, "%s is %d bytes, more than the limit of %d (%d KiB) for a file of a skill", rel, len(data), skill.MaxFile, skill.MaxFile>>10)
		case !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0:
			l.warn(1, 1, "%s is not UTF-8 text: use_skill can only hand text to the model", rel)
		case !skill.ValidPath(rel):
			l.warn(1, 1, "%s cannot name a file of a skill", rel)
		default:
			out[rel] = string(data)
		}
		return nil
	})
	if len(out) > skill.MaxFiles {
		l.warn(1, 1, "the skill has %d files besides SKILL.md, more than the limit of %d", len(out), skill.MaxFiles)
	}
	return out
}

// addSkills loads the skills in dir into tp, with their warnings; the
// tools they may name are those tp generates.
func addSkills(tp *toolPackage, base, dir string) error {
	names := make([]string, len(tp.Tools))
	for i, t := range tp.Tools {
		names[i] = t.Name
	}
	st, ws, err := loadSkills(base, dir, names)
	if err != nil {
		return err
	}
	tp.Skills = st
	tp.Warnings = dedup(append(tp.Warnings, ws...))
	return nil
}

// Package skill holds the skills compiled into a toolreg agent: packaged
// know-how in the open Agent Skills format, a folder skills/<name>/ with a
// SKILL.md (YAML front matter and a Markdown body) and the files the body
// refers to.
//
// cmd/toolgen reads and checks the folders at generate time and writes
// them into the generated registry file as string constants, with a
// Skills() function that returns a [Set]; nothing is read from disk at run
// time. [UseSkillEntry] makes the built-in use_skill tool, by which a model loads a
// skill's instructions, or one of its files, when it needs them: the tool's
// description lists the names and descriptions (progressive disclosure).
// A skill's scripts are text to the model; nothing here runs them.
package skill

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Skill is one skill: its front matter, its body and its files.
type Skill struct {
	// Name matches NamePattern and is the name of the skill's folder.
	Name string
	// Description says what the skill does and when to use it; the model
	// chooses skills by it.
	Description string
	// License and Compatibility are the optional front-matter fields of
	// the same names.
	License, Compatibility string
	// AllowedTools are the tools the skill's instructions use, by the
	// name the model sees; toolgen checked that each is in the toolbox.
	AllowedTools []string
	// Metadata is the front matter's metadata map.
	Metadata map[string]string
	// Body is the Markdown after the front matter: the instructions.
	Body string
	// Files are the other files of the skill's folder, by path relative
	// to it, with '/' separators (such as "references/checklist.md").
	Files map[string]string
	// Source is the SKILL.md file the skill was read from, relative to
	// its module root.
	Source string
}

// FileNames returns the paths of s's files, sorted.
func (s *Skill) FileNames() []string {
	return slices.Sorted(maps.Keys(s.Files))
}

// The limits of a skill, which toolgen checks and NewSet enforces.
const (
	// MaxName is the longest name, in bytes.
	MaxName = 64
	// MaxDescription is the longest description, in characters.
	MaxDescription = 1024
	// MaxCompatibility is the longest compatibility note, in characters.
	MaxCompatibility = 500
	// MaxBody is the largest body, in bytes: instructions a model reads
	// whole, a few thousand tokens at most.
	MaxBody = 32 << 10
	// MaxFile is the largest file, in bytes: what one use_skill answer
	// carries without being cut (registry.DefaultMaxResult).
	MaxFile = 64 << 10
	// MaxFiles is the most files a skill may have besides SKILL.md.
	MaxFiles = 64
	// MaxTotal is the largest skill, in bytes: its body and files.
	MaxTotal = 512 << 10
)

// NamePattern is the rule for a skill's name, from the Agent Skills
// format: 1 to 64 lowercase ASCII letters, digits and hyphens, neither
// first nor last, never two in a row.
const NamePattern = `^[a-z0-9]+(-[a-z0-9]+)*$`

// ValidName reports whether s matches NamePattern and is at most MaxName
// bytes long.
func ValidName(s string) bool {
	if s == "" || len(s) > MaxName || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Check says what is wrong with s, or nil: an invalid name, an empty or
// long description, a body or file past its limit or not UTF-8, a file
// path that is not clean and relative.
func (s *Skill) Check() error {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if !ValidName(s.Name) {
		add("name %q does not match %s (at most %d characters)", s.Name, NamePattern, MaxName)
	}
	switch n := utf8.RuneCountInString(s.Description); {
	case strings.TrimSpace(s.Description) == "":
		add("empty description")
	case n > MaxDescription:
		add("description of %d characters, more than %d", n, MaxDescription)
	}
	if n := utf8.RuneCountInString(s.Compatibility); n > MaxCompatibility {
		add("compatibility of %d characters, more than %d", n, MaxCompatibility)
	}
	switch {
	case strings.TrimSpace(s.Body) == "":
		add("empty body")
	case len(s.Body) > MaxBody:
		add("body of %d bytes, more than %d", len(s.Body), MaxBody)
	case !utf8.ValidString(s.Body):
		add("body is not UTF-8")
	}
	if len(s.Files) > MaxFiles {
		add("%d files, more than %d", len(s.Files), MaxFiles)
	}
	total := len(s.Body)
	for _, p := range s.FileNames() {
		text := s.Files[p]
		total += len(text)
		if !ValidPath(p) {
			add("file path %q is not a clean relative path inside the skill", p)
		}
		if len(text) > MaxFile {
			add("file %s of %d bytes, more than %d", p, len(text), MaxFile)
		}
		if !utf8.ValidString(text) {
			add("file %s is not UTF-8 text", p)
		}
	}
	if total > MaxTotal {
		add("%d bytes in all, more than %d", total, MaxTotal)
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("skill %s: %s", cmp.Or(s.Name, "(unnamed)"), strings.Join(problems, "; "))
}

// ValidPath reports whether p can name a file of a skill: relative, with
// '/' separators, no empty, "." or ".." element, no backslash, and not
// SKILL.md itself.
func ValidPath(p string) bool {
	if p == "" || p == "SKILL.md" || strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return false
	}
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." || el == ".." {
			return false
		}
	}
	return true
}

// Set is a set of skills with unique names, sorted by name. It is never
// changed once made; what it returns are copies.
type Set struct {
	skills []Skill
}

// NewSet returns the set of skills, after checking each (see
// [Skill.Check]) and that no two share a name. A generated table always
// passes.
func NewSet(skills ...Skill) (*Set, error) {
	var errs []error
	out := make([]Skill, 0, len(skills))
	seen := map[string]bool{}
	for i := range skills {
		s := clone(&skills[i])
		if err := s.Check(); err != nil {
			errs = append(errs, err)
			continue
		}
		if seen[s.Name] {
			errs = append(errs, fmt.Errorf("skill %s: the name is taken", s.Name))
			continue
		}
		seen[s.Name] = true
		out = append(out, s)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("skill: %w", err)
	}
	slices.SortFunc(out, func(a, b Skill) int { return cmp.Compare(a.Name, b.Name) })
	return &Set{skills: out}, nil
}

// MustNewSet is NewSet for skills known to be valid, such as generated
// ones: it panics if NewSet fails.
func MustNewSet(skills ...Skill) *Set {
	s, err := NewSet(skills...)
	if err != nil {
		panic(err)
	}
	return s
}

// clone copies s deeply, so that the caller's slices and maps are not
// shared with a Set.
func clone(s *Skill) Skill {
	c := *s
	c.AllowedTools = slices.Clone(s.AllowedTools)
	c.Metadata = maps.Clone(s.Metadata)
	c.Files = maps.Clone(s.Files)
	return c
}

// Len returns the number of skills in s; a nil Set has none.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.skills)
}

// List returns copies of the skills, sorted by name.
func (s *Set) List() []Skill {
	out := make([]Skill, s.Len())
	for i := range out {
		out[i] = clone(&s.skills[i])
	}
	return out
}

// Names returns the skills' names, sorted.
func (s *Set) Names() []string {
	out := make([]string, s.Len())
	for i := range out {
		out[i] = s.skills[i].Name
	}
	return out
}

// Get returns a copy of the named skill.
func (s *Set) Get(name string) (Skill, bool) {
	if s == nil {
		return Skill{}, false
	}
	i, ok := slices.BinarySearchFunc(s.skills, name, func(k Skill, n string) int { return cmp.Compare(k.Name, n) })
	if !ok {
		return Skill{}, false
	}
	return clone(&s.skills[i]), true
}

// File returns the text of a file of the named skill. An unknown skill or
// file is an error that lists the valid choices.
func (s *Set) File(name, path string) (string, error) {
	k, ok := s.Get(name)
	if !ok {
		return "", s.unknown(name)
	}
	text, ok := k.Files[path]
	if !ok {
		files := k.FileNames()
		if len(files) == 0 {
			return "", fmt.Errorf("skill %s has no file %q: it has no files besides its instructions", name, path)
		}
		return "", fmt.Errorf("skill %s has no file %q; its files: %s", name, path, strings.Join(files, ", "))
	}
	return text, nil
}

// unknown is the error for a skill name that is not in s.
func (s *Set) unknown(name string) error {
	if s.Len() == 0 {
		return fmt.Errorf("no skill %q: there are no skills", name)
	}
	return fmt.Errorf("no skill %q; the skills: %s", name, strings.Join(s.Names(), ", "))
}

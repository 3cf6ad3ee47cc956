package main

import (
	"net/url"
	"path"
	"regexp"
	"strings"
)

// A link in a skill's body may point at a web page, at a heading, or at a
// file of the skill: a relative path that stays inside the skill folder
// and names a file that exists (and that toolgen compiled in). Links in
// fenced code blocks and code spans are not links.

var (
	// refDef is a Markdown link reference definition: [label]: target.
	refDef = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:[ \t]*`)
	// scheme begins an absolute URL (https:, mailto:, file:).
	scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// links checks the links of body, whose first line is line bodyLine of
// SKILL.md, against the skill's files.
func (l *skillLoader) links(body string, bodyLine int, files map[string]string) {
	fence := ""
	for i, text := range strings.Split(body, "\n") {
		line := bodyLine + i
		trimmed := strings.TrimLeft(text, " ")
		if indent := len(text) - len(trimmed); indent <= 3 {
			for _, f := range []string{"```", "~~~"} {
				if !strings.HasPrefix(trimmed, f) {
					continue
				}
				run := trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, f[:1]))]
				switch {
				case fence == "":
					fence = run
				case strings.HasPrefix(run, fence) && strings.TrimSpace(trimmed[len(run):]) == "":
					fence = ""
				}
			}
		}
		if fence != "" || strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			continue
		}
		if m := refDef.FindStringIndex(text); m != nil {
			l.checkLink(text[m[1]:], line, m[1]+1, files)
			continue
		}
		open := 0 // unmatched '[' before j
		for j := 0; j < len(text); j++ {
			switch c := text[j]; {
			case c == '`':
				n := len(text[j:]) - len(strings.TrimLeft(text[j:], "`"))
				end := strings.Index(text[j+n:], text[j:j+n])
				if end < 0 {
					j += n - 1
					continue
				}
				j += n + end + n - 1
			case c == '\\':
				j++
			case c == '[':
				open++
			case c == ']' && open > 0:
				open--
				if strings.HasPrefix(text[j:], "](") {
					l.checkLink(text[j+2:], line, j+3, files)
				}
			}
		}
	}
}

// checkLink checks the link whose destination begins dest, at line:col.
func (l *skillLoader) checkLink(dest string, line, col int, files map[string]string) {
	var target string
	if strings.HasPrefix(dest, "<") {
		end := strings.IndexByte(dest, '>')
		if end < 0 {
			return
		}
		target = dest[1:end]
	} else {
		depth, end := 0, len(dest)
	scan:
		for i, c := range dest {
			switch {
			case c == '(':
				depth++
			case c == ')' && depth == 0, c == ' ', c == '\t':
				end = i
				break scan
			case c == ')':
				depth--
			}
		}
		target = dest[:end]
	}
	if target == "" || strings.HasPrefix(target, "#") {
		return
	}
	if scheme.MatchString(target) {
		if strings.HasPrefix(strings.ToLower(target), "file:") {
			l.warn(line, col, "link %s points at a file outside the skill; link a file of the skill folder by a relative path", target)
		}
		return
	}
	p, _, _ := strings.Cut(target, "#")
	p, _, _ = strings.Cut(p, "?")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	} else {
		l.warn(line, col, "link %s: %v", target, err)
		return
	}
	switch {
	case strings.HasPrefix(p, "/") || strings.Contains(p, `\`):
		l.warn(line, col, "link %s is an absolute path; link a file of the skill folder by a relative path", target)
		return
	case p == "":
		return
	}
	clean := path.Clean(p)
	switch {
	case clean == ".." || strings.HasPrefix(clean, "../"):
		l.warn(line, col, "link %s leads out of the skill folder; a skill can only refer to its own files", target)
	case clean == "SKILL.md" || clean == ".":
	case hasKey(files, clean):
	default:
		l.warn(line, col, "link %s names no file of the skill folder that toolgen compiled in", target)
	}
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

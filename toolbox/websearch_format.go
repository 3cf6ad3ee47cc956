package toolbox

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// Bounds of the web_search answer, in characters (runes).
const (
	websearchMaxTitle   = 200
	websearchMaxURL     = 500
	websearchMaxSnippet = 300
	websearchMaxNote    = 400
	websearchMaxOutput  = 4000
)

// websearchFormat writes the answer of the web_search tool: a header, then
// up to limit numbered results (title, URL, snippet), cut short so that the
// whole stays under websearchMaxOutput characters, with a line saying so.
func websearchFormat(query, service string, ans websearchAnswer, limit int) string {
	var results []websearchResult
	for _, r := range ans.Results {
		u := strings.TrimSpace(r.URL)
		if u == "" {
			continue
		}
		title := httpxTruncate(websearchCleanText(r.Title), websearchMaxTitle)
		if title == "" {
			title = "(untitled)"
		}
		results = append(results, websearchResult{
			Title:   title,
			URL:     httpxTruncate(u, websearchMaxURL),
			Snippet: httpxTruncate(websearchCleanText(r.Snippet), websearchMaxSnippet),
		})
		if len(results) == limit {
			break
		}
	}
	note := ""
	if ans.Note != "" {
		note = "Note: " + httpxTruncate(ans.Note, websearchMaxNote) + "\n"
	}
	if len(results) == 0 {
		msg := fmt.Sprintf("No web results for %q (%s). Try fewer, more general or differently spelled words.\n%s", query, service, note)
		return strings.TrimRight(msg, "\n")
	}

	var b strings.Builder
	fmt.Fprintf(&b, "Web results for %q (%s):\n", query, service)
	// Room kept for the note and for the line saying the list was cut.
	reserve := utf8.RuneCountInString(note) + 100
	size := utf8.RuneCountInString(b.String())
	shown := 0
	for i, r := range results {
		var e strings.Builder
		fmt.Fprintf(&e, "%d. %s\n   %s\n", i+1, r.Title, r.URL)
		if r.Snippet != "" {
			fmt.Fprintf(&e, "   %s\n", r.Snippet)
		}
		n := utf8.RuneCountInString(e.String())
		if shown > 0 && size+n+reserve > websearchMaxOutput {
			break
		}
		b.WriteString(e.String())
		size += n
		shown++
	}
	if shown < len(results) {
		fmt.Fprintf(&b, "[Cut: %d of %d results shown to keep this answer under %d characters.]\n", shown, len(results), websearchMaxOutput)
	}
	b.WriteString(note)
	return strings.TrimRight(b.String(), "\n")
}

// websearchCleanText turns a title or snippet that may hold HTML into plain
// text on one line: tags such as <strong> are dropped, entities decoded and
// runs of white space collapsed.
func websearchCleanText(s string) string {
	return strings.Join(strings.Fields(html.UnescapeString(websearchStripTags(s))), " ")
}

// websearchInlineTag reports whether the tag called name marks up words
// without separating them from their neighbours.
func websearchInlineTag(name string) bool {
	switch strings.ToLower(name) {
	case "a", "abbr", "b", "code", "em", "i", "mark", "small", "span", "strong", "sub", "sup", "u":
		return true
	}
	return false
}

// websearchStripTags removes HTML tags and comments from s. A block tag such
// as <br> or <p> leaves a space; an inline one such as <strong> leaves
// nothing. A '<' that does not open a tag, as in "a < b", is kept.
func websearchStripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 || i+1 >= len(s) {
			b.WriteString(s)
			return b.String()
		}
		c := s[i+1]
		opens := c == '/' || c == '!' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
		end := strings.IndexByte(s[i:], '>')
		if !opens || end < 0 {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		name := strings.TrimPrefix(s[i+1:i+end], "/")
		if j := strings.IndexFunc(name, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') }); j >= 0 {
			name = name[:j]
		}
		if !websearchInlineTag(name) && c != '!' {
			b.WriteByte(' ')
		}
		s = s[i+end+1:]
	}
}

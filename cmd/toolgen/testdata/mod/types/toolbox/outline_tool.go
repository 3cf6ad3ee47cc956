package toolbox

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/toolreg/toolreg/tool"
)

// Outline files a document outline, as a tool whose arguments are
// recursive types: a section holds sections, and a note may quote a
// section, which may hold notes (mutual recursion).
type Outline struct{}

// Section is a heading and the sections under it.
type Section struct {
	// Title is the heading of the section.
	Title string `json:"title" jsonschema:"minLength=1,maxLength=80"`
	// Children are the sections under this one, in order.
	Children []Section `json:"children,omitempty" jsonschema:"maxItems=20"`
	// Note is a remark on the section, if any.
	Note *Note `json:"note,omitempty"`
}

// Note is a remark on a section.
type Note struct {
	// Text is the remark.
	Text string `json:"text"`
	// Quote is a section the remark quotes, if any.
	Quote *Section `json:"quote,omitempty"`
	// Priority ranks the remark, from 1 (first) to 9, if given.
	Priority int `json:"priority,omitempty,string" jsonschema:"minimum=1,maximum=9"`
	// Spans are how long each reading of the remark took.
	Spans []time.Duration `json:"spans,omitempty"`
}

// OutlineArgs are the arguments of outline.
type OutlineArgs struct {
	// Root is the top section of the document.
	Root Section `json:"root"`
	// Appendix is a section after the document, if any.
	Appendix *Section `json:"appendix,omitempty"`
}

// Definition describes outline.
func (Outline) Definition() tool.Definition {
	return tool.Definition{ID: "outline", Description: "File the outline of a document: its sections, their subsections and notes. Use it when the user asks to structure a document."}
}

// Execute answers the outline, one section a line, indented by depth.
func (Outline) Execute(ctx context.Context, args OutlineArgs) (string, error) {
	var b strings.Builder
	var write func(s Section, depth int)
	write = func(s Section, depth int) {
		fmt.Fprintf(&b, "%s%s;", strings.Repeat("-", depth), s.Title)
		if s.Note != nil {
			fmt.Fprintf(&b, " (%s", s.Note.Text)
			if s.Note.Quote != nil {
				write(*s.Note.Quote, depth+1)
			}
			b.WriteString(")")
		}
		for _, c := range s.Children {
			write(c, depth+1)
		}
	}
	write(args.Root, 0)
	if args.Appendix != nil {
		b.WriteString(" appendix ")
		write(*args.Appendix, 0)
	}
	return b.String(), nil
}

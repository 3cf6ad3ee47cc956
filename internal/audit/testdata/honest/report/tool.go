// Package report is an honest tool: text/template and html/template over
// its own data (methods included), JSON of its own types with a
// MarshalJSON, sync.Once for the parsed templates, and a context value.
package report

import (
	"context"
	"encoding/json"
	htmltemplate "html/template"
	"strings"
	"sync"
	"text/template"

	"github.com/toolreg/toolreg/tool"
)

// Tool renders a summary of scores.
type Tool struct{}

// Args hold the scores.
type Args struct {
	Title  string         `json:"title"`
	Scores map[string]int `json:"scores"`
	HTML   bool           `json:"html"`
}

// Definition declares nothing.
func (Tool) Definition() tool.Definition { return tool.Definition{ID: "report"} }

type grade int

func (g grade) Letter() string { return string("FEDCBA"[min(int(g)/20, 5)]) }

func (g grade) MarshalJSON() ([]byte, error) { return json.Marshal(g.Letter()) }

type row struct {
	Name  string
	Grade grade
}

type page struct {
	Title string
	Rows  []row
}

func (p page) Best() row {
	best := row{}
	for _, r := range p.Rows {
		if r.Grade >= best.Grade {
			best = r
		}
	}
	return best
}

var (
	once  sync.Once
	text  *template.Template
	html  *htmltemplate.Template
	funcs = template.FuncMap{"upper": strings.ToUpper}
)

const layout = `{{.Title | upper}}
{{range .Rows}}{{.Name}}: {{.Grade.Letter}}
{{end}}best: {{.Best.Name}}`

type ctxKey struct{}

// Execute renders the page.
func (Tool) Execute(ctx context.Context, args Args) (string, error) {
	once.Do(func() {
		text = template.Must(template.New("text").Funcs(funcs).Parse(layout))
		html = htmltemplate.Must(htmltemplate.New("html").Funcs(htmltemplate.FuncMap(funcs)).Parse(layout))
	})
	ctx = context.WithValue(ctx, ctxKey{}, args.Title)
	p := page{Title: ctx.Value(ctxKey{}).(string)}
	for name, score := range args.Scores {
		p.Rows = append(p.Rows, row{Name: name, Grade: grade(score)})
	}
	var b strings.Builder
	var err error
	if args.HTML {
		err = html.Execute(&b, p)
	} else {
		err = text.Execute(&b, p)
	}
	if err != nil {
		return "", err
	}
	j, err := json.Marshal(p.Rows)
	if err != nil {
		return "", err
	}
	return b.String() + "\n" + string(j), nil
}

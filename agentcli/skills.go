package agentcli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/skill"
)

// compiledIn returns the compiled-in tools: those of the toolbox and, when
// there are skills, the built-in use_skill tool that loads one. The
// workers serve the same set.
func compiledIn(t CompiledTools) (*registry.Registry, error) {
	if t.Toolbox == nil {
		return nil, errors.New("no tools: agentcli.CompiledTools has no Toolbox function")
	}
	reg := t.Toolbox()
	skills := t.skills()
	if skills.Len() == 0 {
		return reg, nil
	}
	reg, err := reg.With(skill.UseSkillEntry(skills))
	if err != nil {
		return nil, fmt.Errorf("the built-in %s tool: %w", skill.ToolName, err)
	}
	return reg, nil
}

// skillJSON is one skill in agent skills -json.
type skillJSON struct {
	Name          string            `json:"name"`
	Description   string            `json:"description"`
	License       string            `json:"license,omitempty"`
	Compatibility string            `json:"compatibility,omitempty"`
	AllowedTools  []string          `json:"allowed_tools,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
	Files         []string          `json:"files,omitempty"`
	Source        string            `json:"source"`
	Body          string            `json:"body,omitempty"`
}

// runSkills is agent skills [-v] [-json] [NAME]: the compiled-in skills,
// or one in full.
func (c *cli) runSkills(_ context.Context, args []string) int {
	o, pos, code := c.parseFlags("skills", args)
	if code >= 0 {
		return code
	}
	if len(pos) > 1 {
		fmt.Fprintf(c.stderr, "agent skills: unexpected arguments %q: want at most one skill NAME\n", pos[1:])
		return 2
	}
	set := c.tools.skills()
	list := set.List()
	if len(pos) == 1 {
		k, ok := set.Get(pos[0])
		if !ok {
			fmt.Fprintf(c.stderr, "agent skills: no skill %q; the skills: %s\n", pos[0], strings.Join(set.Names(), ", "))
			return 2
		}
		list = []skill.Skill{k}
	}
	if o.asJSON {
		out := make([]skillJSON, len(list))
		for i, k := range list {
			out[i] = skillJSON{Name: k.Name, Description: k.Description, License: k.License, Compatibility: k.Compatibility,
				AllowedTools: k.AllowedTools, Metadata: k.Metadata, Files: k.FileNames(), Source: k.Source}
			if len(pos) == 1 {
				out[i].Body = k.Body
			}
		}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			fmt.Fprintf(c.stderr, "agent: encode the skills: %v\n", err)
			return 1
		}
		fmt.Fprintf(c.stdout, "%s\n", b)
		return 0
	}
	if len(pos) == 1 {
		writeSkill(c.stdout, &list[0])
		fmt.Fprintf(c.stdout, "\n%s", strings.TrimRight(list[0].Body, "\n")+"\n")
		return 0
	}
	if len(list) == 0 {
		fmt.Fprintln(c.stderr, "agent skills: no skills are compiled in")
		return 0
	}
	if o.verbose {
		for i := range list {
			if i > 0 {
				fmt.Fprintln(c.stdout)
			}
			writeSkill(c.stdout, &list[i])
		}
		return 0
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	for _, k := range list {
		fmt.Fprintf(tw, "%s\t%s\n", k.Name, firstLine(k.Description))
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(c.stderr, "agent: %v\n", err)
		return 1
	}
	return 0
}

// writeSkill writes a skill in detail: its description, where it was
// compiled from, its allowed tools and files.
func writeSkill(w io.Writer, k *skill.Skill) {
	fmt.Fprintf(w, "%s  %s\n", k.Name, strings.Join(strings.Fields(k.Description), " "))
	fmt.Fprintf(w, "    source: %s", k.Source)
	if k.License != "" {
		fmt.Fprintf(w, ", license: %s", k.License)
	}
	fmt.Fprintln(w)
	if k.Compatibility != "" {
		fmt.Fprintf(w, "    compatibility: %s\n", k.Compatibility)
	}
	fmt.Fprintf(w, "    allowed tools: %s\n", cmpOrDash(strings.Join(k.AllowedTools, ", ")))
	files := k.FileNames()
	if len(files) == 0 {
		fmt.Fprintln(w, "    files: none")
		return
	}
	fmt.Fprintln(w, "    files:")
	for _, f := range files {
		fmt.Fprintf(w, "      %s (%d bytes)\n", f, len(k.Files[f]))
	}
}

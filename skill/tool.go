package skill

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/toolreg/toolreg/registry"
)

// ToolName is the name and id of the built-in tool that loads a skill.
const ToolName = "use_skill"

// toolTimeout bounds a use_skill call, which only copies text.
const toolTimeout = 5 * time.Second

// UseSkillEntry returns the entry of the built-in use_skill tool of the skills of s: its
// description lists each skill's name and description, its arguments are
// {"name": one of the names, "file": optional path of one of the skill's
// files}, and its answer is the skill's body (with the list of its files)
// or the file's text. It declares no capabilities: it reads nothing but
// the compiled-in text, and runs nothing. Add it to a registry with
// Registry.With; s should have at least one skill.
func UseSkillEntry(s *Set) registry.Entry {
	return registry.Entry{
		ID:          ToolName,
		Name:        ToolName,
		Description: s.toolDescription(),
		Timeout:     toolTimeout,
		Parameters:  s.toolSchema(false),
		// The strict variant, for strict function calling: file is
		// required and nullable; a strict registry reads its null as left
		// out.
		StrictParameters: s.toolSchema(true),
		Bind: func(data string) (registry.Run, error) {
			a, err := s.decode(data)
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) (string, error) {
				if a.File != "" {
					return s.File(a.Name, a.File)
				}
				return s.text(a.Name), nil
			}, nil
		},
	}
}

// toolArgs are the arguments of use_skill.
type toolArgs struct {
	Name string  `json:"name"`
	File *string `json:"file"`
}

// args are toolArgs, checked.
type args struct{ Name, File string }

// decode reads use_skill's arguments strictly and checks them against s;
// every failure is an argument error that names the valid choices.
func (s *Set) decode(data string) (args, error) {
	var a toolArgs
	dec := json.NewDecoder(strings.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return args{}, registry.ArgumentError(fmt.Errorf("want a JSON object {\"name\": skill, \"file\": optional path}: %w", err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return args{}, registry.ArgumentError(errors.New("unexpected data after the JSON object"))
	}
	if strings.HasPrefix(strings.TrimSpace(data), "null") {
		return args{}, registry.ArgumentError(errors.New("want a JSON object, not null"))
	}
	if a.Name == "" {
		return args{}, registry.ArgumentError(fmt.Errorf("name is required: one of %s", strings.Join(s.Names(), ", ")))
	}
	if _, ok := s.Get(a.Name); !ok {
		return args{}, registry.ArgumentError(s.unknown(a.Name))
	}
	out := args{Name: a.Name}
	if a.File != nil {
		if _, err := s.File(a.Name, *a.File); err != nil {
			return args{}, registry.ArgumentError(err)
		}
		out.File = *a.File
	}
	return out, nil
}

// text is use_skill's answer for a skill without a file: its body, then
// the list of its files.
func (s *Set) text(name string) string {
	k, _ := s.Get(name)
	files := k.FileNames()
	if len(files) == 0 {
		return k.Body
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(k.Body, "\n"))
	fmt.Fprintf(&b, "\n\n---\nFiles of skill %s (load one with %s and \"file\"): %s\n", name, ToolName, strings.Join(files, ", "))
	return b.String()
}

// toolDescription is use_skill's description: what it does, then one line
// per skill.
func (s *Set) toolDescription() string {
	var b strings.Builder
	b.WriteString("Load a skill: instructions for a kind of task, written for you. " +
		"When a task matches a skill below, call this first with the skill's name and follow the instructions it returns; " +
		"call it again with \"file\" to read a file the instructions refer to. Skills:")
	for i := range s.skills {
		k := &s.skills[i]
		fmt.Fprintf(&b, "\n- %s: %s", k.Name, strings.Join(strings.Fields(k.Description), " "))
	}
	return b.String()
}

// toolSchema is the JSON Schema of use_skill's arguments; with strict,
// its strict variant: every property required, file a union with null.
// additionalProperties is false in both.
func (s *Set) toolSchema(strict bool) string {
	type prop struct {
		Type        any      `json:"type"`
		Enum        []string `json:"enum,omitempty"`
		Description string   `json:"description"`
	}
	file := prop{Type: "string", Description: "A file of the skill to read instead of its instructions, by its path in the skill, such as references/checklist.md."}
	required := []string{"name"}
	if strict {
		file.Type = []string{"string", "null"}
		file.Description = strings.TrimSuffix(file.Description, ".") + "; null for the instructions."
		required = append(required, "file")
	}
	schema := struct {
		Type                 string          `json:"type"`
		Properties           map[string]prop `json:"properties"`
		Required             []string        `json:"required"`
		AdditionalProperties bool            `json:"additionalProperties"`
	}{
		Type: "object",
		Properties: map[string]prop{
			"name": {Type: "string", Enum: s.Names(), Description: "The skill to load."},
			"file": file,
		},
		Required: required,
	}
	b, err := json.Marshal(schema)
	if err != nil {
		panic(fmt.Sprintf("skill: the use_skill schema: %v", err)) // static types: cannot happen
	}
	return string(b)
}

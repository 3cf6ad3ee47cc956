// Package toolcheck holds the convention checks of toolreg tool packages
// and the model they derive.
//
// A tool is one file, <id>_tool.go, that declares one exported type with
// the methods
//
//	func (T) Definition() tool.Definition
//	func (T) Execute(ctx context.Context, args A) (R, error)
//
// as docs/writing-tools.md of github.com/toolreg/toolreg describes. [Check] checks
// one build configuration of a type-checked package and returns the model
// of each tool that follows the convention ([Tool], [Type]) with a
// diagnostic for everything else; toolgen generates the registry from the
// model. [Analyzer] runs the same checks as a go/analysis analyzer, for
// go vet (cmd/toolvet), golangci-lint and analysistest.
//
// Check also lints the descriptions the model reads (a tool's: long
// enough, not its name again, saying when to use it; a parameter's: long
// enough, not its name again, explaining an enum's choices, agreeing with
// its bounds). A lint [Diagnostic] has Lint set and leaves the tool in the
// result. [StrictSchemaJSON] derives the strict variant of a schema, for
// strict function calling.
//
// Tool files are judged for every platform of [SupportedPlatforms]: a tool
// file whose build constraints leave it out anywhere is reported and left
// out everywhere, so the registry is the same on every host.
package toolcheck

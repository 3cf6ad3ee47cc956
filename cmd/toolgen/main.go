// Toolgen generates the static tool registry of a toolreg agent.
//
// It type-checks the tool package (./toolbox by default) for every
// supported platform, checks the convention on every *_tool.go file,
// derives each tool's JSON Schema from its Go args type and doc comments,
// audits the capabilities each tool's code reaches, and writes
// zz_registry_gen.go: the table of tools, with each tool's JSON Schema,
// plain and in the strict variant for strict function calling (the
// registry makes the OpenAI tools spec from them), and a strict decoder
// for each tool's arguments, a jsonarg.Reader a field, and the search
// index of the tools (package toolsearch), behind Registry.Search. Nothing
// is scanned, reflected or indexed at run time.
//
// The convention (one exported type per <id>_tool.go file with
// Definition() tool.Definition and Execute(ctx, Args) (R, error)) is
// described in docs/writing-tools.md ("Writing a tool") and in package
// github.com/toolreg/toolreg/internal/toolcheck, which holds the checks; cmd/toolvet
// runs them under go vet.
//
// Usage, from the directory of the package that holds the registry:
//
//	//go:generate go run github.com/toolreg/toolreg/cmd/toolgen [flags]
//
// Flags:
//
//	-dir DIR        the tool package directory (default "toolbox")
//	-o FILE         the output file (default "zz_registry_gen.go"); its
//	                package is the package of the other Go files in its
//	                directory
//	-check          write nothing; exit 1 if there is any warning or FILE
//	                is not what toolgen would write (the lint for CI)
//	-explain ID     write nothing; print, for each capability the tool
//	                with this id reaches, a shortest call path through each
//	                call of its Execute that reaches it, down to the
//	                classified function
//	-platforms L    the GOOS/GOARCH list every tool must build on (default
//	                darwin, linux and windows on amd64 and arm64)
//	-trust-c L      the import paths, comma-separated, of the packages
//	                whose C or object code you reviewed (a cgo dependency
//	                such as a database driver): a note for each, not the
//	                warning every package with such code gets
//	-cpuprofile F   write a CPU profile of the run to F (go tool pprof)
//
// Skills: when a directory skills/ is beside the output file, each folder
// skills/<name>/ with a SKILL.md (YAML front matter, then a Markdown body)
// is a skill in the open Agent Skills format. toolgen checks it: name
// equal to the folder's, 1 to 64 lowercase letters, digits and hyphens;
// description present and at most 1,024 characters; license,
// compatibility (at most 500), allowed-tools (tools of this registry, by
// the name the model sees) and metadata (strings) optional; no other
// field; every relative link in the body names a file of the folder,
// without leaving it; no symbolic links; every file UTF-8 text; at most
// 32 KiB of body, 64 KiB a file, 64 files and 512 KiB in all. It writes
// the skills that pass into the output file as string constants, behind a
// function Skills() *skill.Set; nothing is read from disk at run time.
// Each problem is a warning at its line of SKILL.md, and that skill is
// left out.
//
// Every mistake in a tool file is a warning on stderr,
// path:line:col: message, in that tool's file; that tool is left out and
// every other tool is generated. The description lint (a vague tool or
// parameter description) warns in the same form but keeps the tool; -check
// fails on it like on any warning. A note (path:line:col: note: ...) is
// advice, such as a helper file that looks like a tool.
//
// Exit status: 0 when the registry was written (warnings or not) or, with
// -check, is current and has no warning; 1 when the tool package does not
// compile on one of the platforms (the compiler's errors are printed and
// nothing is written), with -check on a warning or a stale file, or on
// any other failure; 2 for bad usage.
package main

import (
	"os"
	"runtime/debug"
)

// manual is what toolgen -h prints.
const manual = `usage: toolgen [-dir DIR] [-o FILE] [-check | -explain ID] [-platforms LIST] [-trust-c LIST] [-cpuprofile FILE]

toolgen type-checks a toolreg tool package for every supported platform,
checks each *_tool.go file against the convention, audits what each tool's
code can do, and writes the static registry: the tool table, with each
tool's JSON Schema (plain and strict), and a strict argument decoder per
tool.

Run it through go generate from the package that holds the registry:
	//go:generate go run github.com/toolreg/toolreg/cmd/toolgen

Flags:
	-dir DIR         the tool package directory (default "toolbox")
	-o FILE          the output file (default "zz_registry_gen.go")
	-check           write nothing; exit 1 on any warning or a stale FILE
	-explain ID      write nothing; print every call path by which the tool
	                 with this id reaches each of its capabilities
	-platforms LIST  GOOS/GOARCH pairs every tool must build on, comma-
	                 separated (default: darwin, linux and windows on amd64
	                 and arm64)
	-trust-c LIST    import paths, comma-separated, of the packages whose C
	                 or object code you reviewed: a note for each, not a
	                 warning (C code can run at start without a call)
	-cpuprofile FILE write a CPU profile of the run to FILE

Each mistake in a tool file is a warning "path:line:col: message" in that
tool's file; the tool is left out and the others are generated. Warnings of
the description lint (vague descriptions) keep the tool, and fail -check
like the others.

Skills: each folder skills/<name>/ beside FILE with a SKILL.md (YAML front
matter: name, description, license, compatibility, allowed-tools,
metadata; then a Markdown body) is checked and compiled into FILE behind
Skills(); a problem is a warning at its line of SKILL.md, and that skill is
left out. Lines with
"note:" are advice and never fail -check.

Exit status:
	0  registry written (or, with -check, current and without warnings)
	1  the tool package does not compile (compiler errors printed, nothing
	   written; when it builds on some of the platforms only, as with a
	   dependency that needs cgo, which toolgen reads for platforms other
	   than the host's with CGO_ENABLED=0, a hint names them and
	   -platforms); with -check, a warning or a stale FILE; any other
	   failure
	2  bad usage

The convention: docs/writing-tools.md, "Writing a tool", at
https://github.com/toolreg/toolreg; the checks: package
github.com/toolreg/toolreg/internal/toolcheck, also run by go vet through
cmd/toolvet.
`

func main() {
	if os.Getenv("GOGC") == "" {
		// A short run that builds large structures (the tool package's
		// SSA, a registry file of megabytes): collecting half as often
		// as by default saves about a tenth of toolgen's CPU at 1,000
		// tools, for a fifth more memory at the peak.
		debug.SetGCPercent(200)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

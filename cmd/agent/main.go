// Agent is a chat agent whose tools are compiled in: ask it something, and
// it answers, calling tools from toolbox/ as the model asks for them.
//
// Usage:
//
//	agent [flags] "question"   one question, the answer on stdout
//	echo question | agent       the question from stdin
//	agent                       a conversation on a terminal
//	agent tools [-json] [-v]    list the tools (offline)
//	agent call NAME JSON|-      run one tool (offline)
//
// The model is any OpenAI-compatible endpoint, configured by LLM_BASE_URL,
// LLM_API_KEY and LLM_MODEL; see docs/agent.md for the flags and providers.
// The agent is package agentcli; this is its main with this repository's
// toolbox.
package main

import (
	"os"

	"github.com/toolreg/toolreg"
	"github.com/toolreg/toolreg/agentcli"
)

func main() {
	os.Exit(agentcli.Main(agentcli.Tools{
		Toolbox: toolreg.Toolbox,
		Skills:  toolreg.Skills,
		Env:     toolreg.ToolEnv(),
		Secrets: toolreg.ToolSecrets(),
	}))
}

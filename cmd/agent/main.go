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
//	agent log [ID]              the kept conversations, or one
//	agent config                the settings and where each came from
//	agent help [TOPIC]          the help, or one topic
//
// The model is any OpenAI-compatible endpoint, configured by LLM_BASE_URL,
// LLM_API_KEY and LLM_MODEL, or by the config file
// $XDG_CONFIG_HOME/toolreg/config.toml; see docs/agent.md for the flags
// and providers and docs/config.md for the file. Exit status: 0 done, 1
// the model or a tool failed, 2 usage or configuration.
// The agent is package agentcli; this is its main with this repository's
// toolbox.
package main

import (
	"os"

	"github.com/toolreg/toolreg"
	"github.com/toolreg/toolreg/agentcli"
)

func main() {
	os.Exit(agentcli.Main(agentcli.CompiledTools{
		Toolbox: toolreg.Toolbox,
		Skills:  toolreg.Skills,
		Env:     toolreg.ToolEnv(),
		Secrets: toolreg.ToolSecrets(),
	}))
}

package agentcli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/toolreg/toolreg/chat"
	"github.com/toolreg/toolreg/redact"
)

// provider is a preset of a base URL and a default model. A preset
// without a model asks the server which models it has.
type provider struct {
	names          []string
	baseURL, model string
	// start says how to start the server, for a local one.
	start string
	// strict reports that the endpoint documents strict function calling
	// ("strict": true on a function tool) at this base URL: the agent
	// then sends the strict variant of each tool's schema (-strict and
	// -no-strict override). Where the documentation is not clear, it is
	// false: the plain schemas work everywhere.
	strict bool
	// images reports that the preset's model takes image input, as the
	// chat completions API does it (image_url content parts in user
	// messages): -images auto then shows the model the images of tool
	// results (chat.Conversation.Images). Another model of the same
	// endpoint may not: -images off.
	images bool
}

// providers are the -provider presets, DeepSeek (the default) first.
// Model names change often: -model picks another.
//
// Strict function calling, per provider, as documented when this was
// written (the agent errs on the side of the plain schemas):
//   - OpenAI: yes. https://platform.openai.com/docs/guides/function-calling
//     ("strict mode"): "strict": true makes the arguments follow the
//     schema exactly, under the rules of Structured Outputs.
//   - DeepSeek: only on its beta endpoint. https://api-docs.deepseek.com/guides/function_calling
//     ("strict mode (Beta)") asks for base URL https://api.deepseek.com/beta;
//     the preset's /v1 does not offer it. Use -base-url
//     https://api.deepseek.com/beta -strict for it.
//   - Kimi (Moonshot), GLM (Zhipu), Qwen (DashScope compatible mode):
//     their OpenAI-compatible tool calling documents no strict field;
//     not assumed.
//   - OpenRouter: depends on the model a request is routed to, and the
//     preset's model routes anywhere; not assumed.
//   - Ollama, LM Studio, vLLM: local servers whose support depends on the
//     version and the model; not assumed.
//
// Image input (image_url parts), per preset and its model:
//   - OpenAI gpt-4.1-mini: yes. https://platform.openai.com/docs/guides/images-vision
//   - Kimi kimi-k2.6: yes, a natively multimodal model; Moonshot's
//     OpenAI-compatible API takes image_url parts.
//   - DeepSeek deepseek-chat, GLM glm-4.6, Qwen qwen-plus: text models
//     (their vision models, glm-4.5v or qwen-vl-plus, are others: -model
//     and -images on).
//   - OpenRouter, Ollama, LM Studio, vLLM: depends on the model; not
//     assumed.
var providers = []provider{
	{names: []string{"deepseek"}, baseURL: "https://api.deepseek.com/v1", model: "deepseek-chat"},
	{names: []string{"moonshot", "kimi"}, baseURL: "https://api.moonshot.cn/v1", model: "kimi-k2.6", images: true},
	{names: []string{"zhipu", "glm"}, baseURL: "https://open.bigmodel.cn/api/paas/v4", model: "glm-4.6"},
	{names: []string{"qwen", "dashscope"}, baseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", model: "qwen-plus"},
	{names: []string{"openai"}, baseURL: "https://api.openai.com/v1", model: "gpt-4.1-mini", strict: true, images: true},
	{names: []string{"openrouter"}, baseURL: "https://openrouter.ai/api/v1", model: "openrouter/auto"},
	{names: []string{"ollama"}, baseURL: "http://localhost:11434/v1", start: `is Ollama running? start it with "ollama serve"`},
	{names: []string{"lmstudio", "lm-studio"}, baseURL: "http://localhost:1234/v1", start: `is LM Studio's server running? start it with "lms server start" or in the app's Developer tab`},
	{names: []string{"vllm"}, baseURL: "http://localhost:8000/v1", start: `is vLLM running? start it with "vllm serve MODEL"`},
}

// strictFor decides whether the agent sends strict tool schemas to
// baseURL: -strict or -no-strict when given (both is an error), otherwise
// what the preset of that base URL says (the -provider preset, or the one
// whose base URL LLM_BASE_URL or -base-url names), and false for any other
// endpoint.
func strictFor(on, off bool, baseURL string) (bool, error) {
	switch {
	case on && off:
		return false, errors.New("-strict and -no-strict contradict each other: give one")
	case on || off:
		return on, nil
	}
	want := strings.TrimRight(baseURL, "/")
	for _, p := range providers {
		if strings.TrimRight(p.baseURL, "/") == want {
			return p.strict, nil
		}
	}
	return false, nil
}

// imagesMode is the -images flag: auto, on or off.
type imagesMode string

func (m *imagesMode) String() string { return string(*m) }

func (m *imagesMode) Set(v string) error {
	switch v {
	case "auto", "on", "off":
		*m = imagesMode(v)
		return nil
	}
	return fmt.Errorf("want auto, on or off, not %q", v)
}

// imagesFor decides whether the agent shows the model the images of tool
// results at baseURL: on or off when -images says so, and for auto what
// the preset of that base URL says (as strictFor finds it); off for any
// other endpoint, whose model may not take images and would fail the
// request.
func imagesFor(m imagesMode, baseURL string) bool {
	switch m {
	case "on":
		return true
	case "off":
		return false
	}
	want := strings.TrimRight(strings.TrimSpace(baseURL), "/")
	for _, p := range providers {
		if strings.TrimRight(p.baseURL, "/") == want {
			return p.images
		}
	}
	return false
}

// preset returns the preset of -provider name, under any name it goes by.
func preset(name string) (provider, bool) {
	for _, p := range providers {
		if slices.Contains(p.names, strings.ToLower(name)) {
			return p, true
		}
	}
	return provider{}, false
}

func providerNames() string {
	var out []string
	for _, p := range providers {
		n := p.names[0]
		if len(p.names) > 1 {
			n += " (" + strings.Join(p.names[1:], ", ") + ")"
		}
		out = append(out, n)
	}
	return strings.Join(out, ", ")
}

// startHint says how to start the local server at baseURL, from the preset
// whose port it uses.
func startHint(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ""
	}
	for _, p := range providers {
		if p.start == "" {
			continue
		}
		if pu, _ := url.Parse(p.baseURL); pu != nil && pu.Port() == u.Port() {
			return p.start
		}
	}
	return "is the server running?"
}

// askModel asks the server at baseURL for its models: the only one is the
// model to use; several are an error that lists them.
func askModel(ctx context.Context, hc *http.Client, baseURL, apiKey string) (string, error) {
	ids, err := (&chat.Client{BaseURL: baseURL, APIKey: apiKey, HTTPClient: hc}).Models(ctx)
	if err != nil {
		return "", fmt.Errorf("%w; name one with -model", err)
	}
	baseURL = redact.String(baseURL)
	switch len(ids) {
	case 0:
		return "", &usageError{fmt.Errorf("the server at %s has no model: load or pull one, or name one with -model", baseURL)}
	case 1:
		return ids[0], nil
	}
	slices.Sort(ids)
	return "", &usageError{fmt.Errorf("the server at %s has %d models; choose one with -model:\n  %s", baseURL, len(ids), strings.Join(ids, "\n  "))}
}

// genAIProvider returns the gen_ai.provider.name of the endpoint at
// baseURL: the first name of the preset with that URL (deepseek, moonshot,
// zhipu, …), or chat.DefaultProvider for another OpenAI-compatible one.
func genAIProvider(baseURL string) string {
	for _, p := range providers {
		if strings.TrimRight(p.baseURL, "/") == strings.TrimRight(strings.TrimSpace(baseURL), "/") {
			return p.names[0]
		}
	}
	return chat.DefaultProvider
}

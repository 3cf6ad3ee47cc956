package agentcli

import "testing"

// TestStrictFor checks how the agent decides to send strict schemas: the
// flags first, then the preset of the base URL, and plain schemas for any
// other endpoint.
func TestStrictFor(t *testing.T) {
	for _, tc := range []struct {
		name     string
		on, off  bool
		baseURL  string
		want     bool
		wantFail bool
	}{
		{name: "openai preset", baseURL: "https://api.openai.com/v1", want: true},
		{name: "openai, trailing slash", baseURL: "https://api.openai.com/v1/", want: true},
		{name: "deepseek preset (v1, not beta)", baseURL: "https://api.deepseek.com/v1", want: false},
		{name: "ollama preset", baseURL: "http://localhost:11434/v1", want: false},
		{name: "other endpoint", baseURL: "https://llm.example/v1", want: false},
		{name: "-strict elsewhere", on: true, baseURL: "https://llm.example/v1", want: true},
		{name: "-no-strict on openai", off: true, baseURL: "https://api.openai.com/v1", want: false},
		{name: "both", on: true, off: true, baseURL: "https://api.openai.com/v1", wantFail: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := strictFor(tc.on, tc.off, tc.baseURL)
			if (err != nil) != tc.wantFail {
				t.Fatalf("strictFor(%v, %v, %q) error %v, want failure %v", tc.on, tc.off, tc.baseURL, err, tc.wantFail)
			}
			if got != tc.want {
				t.Errorf("strictFor(%v, %v, %q) = %v, want %v", tc.on, tc.off, tc.baseURL, got, tc.want)
			}
		})
	}
	// Every preset that claims strict mode is the one the docs back: OpenAI.
	for _, p := range providers {
		if p.strict && p.names[0] != "openai" {
			t.Errorf("preset %s uses strict mode; only openai's documentation was checked for it", p.names[0])
		}
	}
}

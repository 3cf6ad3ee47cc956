package chat

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/sashabaranov/go-openai"
)

// The roles of the messages of a conversation.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one message of a conversation, as it is sent to the model.
//
// Content is always marshalled, even when empty: DeepSeek answers 422 to an
// assistant message without a "content" key, which go-openai's own type
// would drop.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// ReasoningContent is the reasoning the model sent with an assistant
	// message (DeepSeek's thinking mode, Kimi's thinking models), kept on
	// messages that made tool calls because those providers require it to
	// be sent back. Nil means absent; it is never sent on other messages.
	ReasoningContent *string `json:"reasoning_content,omitempty"`
	// ToolCalls are the calls an assistant message made.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID is the id of the call a tool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// Parts, when not nil, is what a user message sends in place of
	// Content: text and images, as content parts. Content then holds its
	// text alone, what is kept of the message (see Conversation.Images):
	// Parts are never marshalled with the message, only sent.
	Parts []Part `json:"-"`
}

// Part is one part of the content of a user message: text, or an image
// given by its URL (a data: URL for an image a tool answered with).
type Part struct {
	// Type is PartText or PartImage.
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
}

// The types of Parts.
const (
	PartText  = "text"
	PartImage = "image_url"
)

// ImageURL is where the model reads an image.
type ImageURL struct {
	URL string `json:"url"`
}

// wireParts is a message sent with its Parts as its content.
type wireParts struct {
	Message
	Content []Part `json:"content"`
}

// wireMessages returns msgs as they are sent: msgs itself unless one of
// them has Parts.
func wireMessages(msgs []Message) any {
	if msgs == nil {
		return []Message{}
	}
	if !slices.ContainsFunc(msgs, func(m Message) bool { return m.Parts != nil }) {
		return msgs
	}
	out := make([]any, len(msgs))
	for i, m := range msgs {
		if m.Parts != nil {
			out[i] = wireParts{Message: m, Content: m.Parts}
		} else {
			out[i] = m
		}
	}
	return out
}

// ToolCall is one tool call made by the model.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall is the function part of a ToolCall: the tool's name and its
// arguments as JSON text.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Usage is the token usage of one or more requests.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
	}
}

// sub returns u less v.
func (u Usage) sub(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens - v.PromptTokens,
		CompletionTokens: u.CompletionTokens - v.CompletionTokens,
		TotalTokens:      u.TotalTokens - v.TotalTokens,
	}
}

// wireRequest is the body of a chat completions request.
type wireRequest struct {
	Model string `json:"model"`
	// Messages are the []Message, or, when some have Parts, a []any of
	// Message and wireParts (see wireMessages).
	Messages      any            `json:"messages"`
	Tools         []openai.Tool  `json:"tools,omitempty"`
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// wireResponse is a non-streamed answer or one streamed chunk: the former
// has choices[].message, the latter choices[].delta.
type wireResponse struct {
	ID      string       `json:"id"`
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   *Usage       `json:"usage"`
	// Error is set when a server reports an error inside a 200 answer or
	// in the middle of a stream.
	Error json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index        int          `json:"index"`
	Message      *wireMessage `json:"message"`
	Delta        *wireMessage `json:"delta"`
	FinishReason *string      `json:"finish_reason"`
	// Usage is where Kimi puts the usage of a streamed answer.
	Usage *Usage `json:"usage"`
}

type wireMessage struct {
	Role             string         `json:"role"`
	Content          textOrParts    `json:"content"`
	ReasoningContent *string        `json:"reasoning_content"`
	Reasoning        *string        `json:"reasoning"`
	ToolCalls        []wireToolCall `json:"tool_calls"`
}

// wireToolCall is a tool call of a non-streamed answer or a tool-call delta
// of a streamed one. Every field may be missing in a delta.
type wireToolCall struct {
	Index    *int          `json:"index"`
	ID       flexString    `json:"id"`
	Type     string        `json:"type"`
	Function wireFunctionC `json:"function"`
}

type wireFunctionC struct {
	Name      string       `json:"name"`
	Arguments argumentText `json:"arguments"`
}

// textOrParts decodes a content field that is a string, null, or an array
// of {"type":"text","text":…} parts.
type textOrParts string

func (t *textOrParts) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*t = ""
		return nil
	case b[0] == '[':
		var parts []struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		var sb strings.Builder
		for _, p := range parts {
			sb.WriteString(p.Text)
		}
		*t = textOrParts(sb.String())
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*t = textOrParts(s)
	return nil
}

// argumentText decodes arguments sent as a JSON string (the standard) or,
// as some servers do, as a JSON object, which is kept as its text.
type argumentText string

func (a *argumentText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*a = ""
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = argumentText(s)
		return nil
	}
	*a = argumentText(b)
	return nil
}

// flexString decodes a string, a number (some servers send numeric ids) or
// null.
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*f = ""
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexString(s)
		return nil
	}
	*f = flexString(b)
	return nil
}

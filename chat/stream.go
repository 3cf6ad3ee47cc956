package chat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/toolreg/toolreg/redact"
)

// streamReader reads one streamed answer: server-sent events whose data
// lines are chat.completion.chunk objects, ending with "data: [DONE]".
type streamReader struct {
	client  *Client
	touch   func() // called for every line, to hold off the idle watchdog
	sink    Sink
	onFirst func() // called at the first delta

	delivered bool // text or reasoning was sent to the sink

	content, reasoning strings.Builder
	reasoningSeen      bool
	calls              assembler
	finish             string
	usage              *Usage
	model              string
	choices            bool   // a choice was seen
	stray              string // the first line that was not SSE, for errors
	eventName          string
}

// read consumes body up to [DONE] and returns the assembled answer.
func (s *streamReader) read(body io.Reader) (*Response, error) {
	max := s.client.MaxStreamBytes
	if max <= 0 {
		max = DefaultMaxStreamBytes
	}
	lr := &io.LimitedReader{R: body, N: max + 1}
	r := bufio.NewReaderSize(lr, 32<<10)
	for {
		line, rerr := r.ReadBytes('\n')
		if lr.N <= 0 && errors.Is(rerr, io.EOF) {
			// Not retried: the same request would run away again.
			return nil, fmt.Errorf("%w: the server sent more than %d bytes without finishing; ask for a shorter answer (max_tokens) or check the server", ErrStreamTooLarge, max)
		}
		if len(line) > 0 {
			s.touch()
			done, err := s.line(line)
			if err != nil {
				return nil, err
			}
			if done {
				return s.response()
			}
		}
		if rerr == nil {
			continue
		}
		if errors.Is(rerr, io.EOF) {
			err := fmt.Errorf("%w: the connection was closed early", ErrStreamTruncated)
			if s.stray != "" {
				err = fmt.Errorf("%w: the server sent %q", ErrStreamTruncated, s.stray)
			}
			return nil, &transientError{err}
		}
		return nil, &transientError{redact.Error(fmt.Errorf("stream: %w", rerr), s.client.APIKey)}
	}
}

// line handles one line; done reports the [DONE] line.
func (s *streamReader) line(line []byte) (done bool, err error) {
	line = bytes.TrimRight(line, "\r\n")
	switch {
	case len(bytes.TrimSpace(line)) == 0:
		// End of an event, or a blank keep-alive.
		s.eventName = ""
		return false, nil
	case line[0] == ':':
		return false, nil // comment, such as ": keep-alive"
	case bytes.HasPrefix(line, []byte("event:")):
		s.eventName = strings.TrimSpace(string(line[len("event:"):]))
		return false, nil
	case bytes.HasPrefix(line, []byte("id:")), bytes.HasPrefix(line, []byte("retry:")):
		return false, nil
	case !bytes.HasPrefix(line, []byte("data:")):
		if isErrorObject(line) {
			// An error body sent as it is, not as an event.
			return false, s.client.inBandError(line)
		}
		if s.stray == "" {
			s.stray = shortRedacted(line, 200, s.client.APIKey)
		}
		return false, nil
	}
	data := bytes.TrimSpace(line[len("data:"):])
	if string(data) == "[DONE]" {
		return true, nil
	}
	if len(data) == 0 {
		return false, nil
	}
	if s.eventName == "error" {
		return false, s.client.inBandError(data)
	}
	var chunk wireResponse
	if err := json.Unmarshal(data, &chunk); err != nil {
		return false, fmt.Errorf("malformed stream chunk (%v): %q", err, shortRedacted(data, 200, s.client.APIKey))
	}
	if len(chunk.Error) > 0 && string(chunk.Error) != "null" {
		return false, s.client.inBandError(data)
	}
	s.chunk(&chunk)
	if s.calls.tooMany {
		return false, tooManyToolCalls()
	}
	return false, nil
}

// chunk merges one chunk into the answer.
func (s *streamReader) chunk(c *wireResponse) {
	if c.Model != "" {
		s.model = c.Model
	}
	if c.Usage != nil {
		s.usage = c.Usage
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue // only one choice is asked for
		}
		s.choices = true
		if ch.Usage != nil {
			s.usage = ch.Usage
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			s.finish = *ch.FinishReason
		}
		d := ch.Delta
		if d == nil {
			d = ch.Message
		}
		if d == nil {
			continue
		}
		if d.ReasoningContent != nil {
			s.reasoningSeen = true
			s.reasoning.WriteString(*d.ReasoningContent)
		}
		if r := reasoningText(d); r != "" {
			s.first()
			s.delivered = true
			s.sink(Event{Type: EventReasoning, Text: r})
		}
		if t := string(d.Content); t != "" {
			s.first()
			s.content.WriteString(t)
			s.delivered = true
			s.sink(Event{Type: EventText, Text: t})
		}
		for _, tc := range d.ToolCalls {
			s.first()
			s.calls.add(tc)
		}
	}
}

func (s *streamReader) first() {
	if s.onFirst != nil {
		s.onFirst()
		s.onFirst = nil
	}
}

func (s *streamReader) response() (*Response, error) {
	if !s.choices {
		return nil, errors.New("the streamed answer has no choices")
	}
	m := Message{Role: RoleAssistant, Content: s.content.String(), ToolCalls: s.calls.toolCalls()}
	if s.reasoningSeen {
		r := s.reasoning.String()
		m.ReasoningContent = &r
	}
	return &Response{Message: m, FinishReason: s.finish, Usage: s.usage, Model: s.model}, nil
}

// reasoningText returns the reasoning of a message or delta:
// reasoning_content (DeepSeek, Kimi, Qwen, vLLM) or reasoning (Ollama,
// OpenRouter), which is shown but not sent back.
func reasoningText(m *wireMessage) string {
	if m.ReasoningContent != nil && *m.ReasoningContent != "" {
		return *m.ReasoningContent
	}
	if m.Reasoning != nil {
		return *m.Reasoning
	}
	return ""
}

// isErrorObject reports whether line is a JSON object with an "error" or
// an "object":"error" field.
func isErrorObject(line []byte) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var v struct {
		Error  json.RawMessage `json:"error"`
		Object string          `json:"object"`
	}
	if json.Unmarshal(line, &v) != nil {
		return false
	}
	return (len(v.Error) > 0 && string(v.Error) != "null") || v.Object == "error"
}

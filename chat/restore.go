package chat

import "slices"

// Restore replaces the conversation's messages with a copy of msgs (without
// a system message), such as those of a kept conversation, so that the next
// turn continues it. It waits for a running turn to end.
func (c *Conversation) Restore(msgs []Message) {
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		m.ToolCalls = slices.Clone(m.ToolCalls)
		m.Parts = slices.Clone(m.Parts)
		if m.ReasoningContent != nil {
			r := *m.ReasoningContent
			m.ReasoningContent = &r
		}
		out[i] = m
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.msgs = out
}

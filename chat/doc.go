// Package chat runs the conversation between a model behind an
// OpenAI-compatible chat completions endpoint (OpenAI, DeepSeek,
// Kimi/Moonshot, GLM/Zhipu, Qwen/DashScope, Ollama, vLLM, …) and the tools
// compiled into the agent.
//
// # The loop
//
// [Conversation.Turn] appends the user's text to the conversation and asks
// the model, sending the whole conversation and the tools' spec table. If
// the answer carries tool calls, the assistant message is appended with
// its calls (and its reasoning_content, see below), every call of that
// answer is run concurrently through [registry.ToolSet.Call] with the call's id and
// name in the context ([tool.WithCall]), one role "tool" message per call
// is appended in the model's order with its tool_call_id, and the model is
// asked again. The turn ends when an answer has no tool calls: its text is
// the turn's answer. What drives the loop is the presence of tool calls,
// never finish_reason alone (OpenAI may answer finish_reason "stop" with
// tool calls, some servers "tool_calls" with none).
//
// A turn is bounded: [Conversation.MaxSteps] model requests (16 by
// default), after which the turn fails with [ErrMaxSteps], and
// [Conversation.MaxToolCalls] tool calls (64 by default); calls past that
// bound are not run, and the model is told so in their tool messages so it
// can answer with what it has. An answer that asks for more than
// [MaxAnswerToolCalls] calls at once fails the turn with
// [ErrTooManyToolCalls]: each call asked for is a message sent back.
//
// A turn that fails leaves the conversation exactly as it was before the
// turn, so a REPL can simply try the turn again.
//
// With [Conversation.Images], the images a tool answers with
// ([registry.Result.Media]) are shown to the model: the chat completions
// API takes images in user messages only, so after the tool messages of a
// step comes one user message with the images of its calls as image_url
// parts, each call's labelled with its id. They are bounded
// ([MaxImagesPerTurn], [MaxImageBytes], [MaxImageBytesPerTurn]) and checked
// (PNG, JPEG, GIF and WebP whose content is of their type); any other is
// described in its tool message with the reason. The conversation keeps
// an image for the rest of its turn, then its description only.
//
// # Wire format
//
// Requests are marshalled by this package, not by go-openai: every
// assistant and tool message carries a "content" key even when it is empty
// (go-openai drops it, and DeepSeek then answers 422), and an assistant
// message keeps the reasoning_content the model sent with it when it made
// tool calls (DeepSeek's thinking mode and Kimi's thinking models answer
// 400 when it is missing). The tools field reuses [openai.Tool].
//
// Streaming is the default: server-sent events, one "data: {json}" line per
// chunk, ending with "data: [DONE]". Comments (": keep-alive") and blank
// lines are skipped however many there are. Tool calls are assembled from
// their deltas by index; deltas without an index (Ollama sends each call
// whole in one delta), continuation deltas that repeat the id as "" (Qwen)
// or send a fresh id (some servers), and several calls reusing one index
// are all handled, see [Client.Complete]. Empty arguments become "{}", and
// a call without an id gets a generated one that is used for its tool
// message too.
//
// Usage: when streaming, the request asks for
// stream_options {"include_usage": true} so that OpenAI and vLLM report
// token usage in the last chunk. Some providers reject that field; when a
// 400 or 422 answer names stream_options, the request is sent again at once
// without it, and the [Client] remembers not to send it any more (set
// [Client.NoStreamOptions] to never send it). Usage is read from the
// chunk's "usage" or, as Kimi sends it, from the choice's "usage".
//
// # Failures
//
// HTTP 408, 409, 429 and 5xx answers and connection errors are retried with
// exponential backoff and jitter, honouring Retry-After (seconds or an HTTP
// date) and retry-after-ms, at most [RetryPolicy.MaxRetries] times; a
// stream that breaks after text was already delivered is not retried, so
// nothing is printed twice. Other failures are an [*APIError] explaining
// the cause, as a [Cause] a program can map to its own advice: a bad key,
// an unknown model, tools not supported by the model, an exhausted quota. An error body that is not
// of the {"error": {...}} form (vLLM, plain text) is shown as the server
// sent it; an HTML page (from a proxy) is named as such. The API key never
// appears in errors, events or logs.
//
// # Events
//
// A Conversation reports what happens to its [Sink]: text and reasoning
// deltas as they stream, each tool call and its result, the usage of each
// request, retries, the final answer and a failed turn. [JSONLines] writes
// one JSON object per event and per line; a program that prints for a
// person writes its own Sink. [Conversation.Usage] sums the token usage of
// every request. Request timings and token usage are logged through
// log/slog at debug level ([Client.Logger]).
package chat

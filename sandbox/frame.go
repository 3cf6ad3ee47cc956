package sandbox

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/toolreg/toolreg/registry"
	"github.com/toolreg/toolreg/tool"
)

// The framing between a pool and its workers, one frame per message on
// a pipe per direction:
//
//	frame    = length:uint32be body              (length = len(body) ≤ maxFrame)
//	ready    = 'S'                               worker → pool, once, first: prepared, waiting for its tool
//	assign   = 'A' JSON(assignment)              pool → worker, once, first: its tool
//	hello    = 'H' JSON(Enforcement)             worker → pool, once, after restricting
//	request  = ('C' | 'L') deadline:int64be idlen:uint16be id args
//	                                     'L': the worker lets its processor go while it waits for the next (see Pool.Call)
//	progress = 'P' done:float64be total:float64be message   worker → pool, before the response (progress.go)
//	response = 'R' kind:uint8 text               kind 0 is success
//
// deadline is in Unix nanoseconds, 0 for none. A worker handles one
// request at a time.
const (
	frameReady    = 'S'
	frameAssign   = 'A'
	frameHello    = 'H'
	frameRequest  = 'C'
	frameRelease  = 'L' // a request after which the worker waits the ordinary way
	frameResponse = 'R'

	// maxFrame bounds a frame in either direction.
	maxFrame = 64 << 20
)

var errFrameTooLarge = errors.New("frame too large")

// writeFrame writes one frame; the header and the body go out in one
// write, so a frame is never interleaved with anything else.
func writeFrame(w io.Writer, buf []byte, parts ...[]byte) ([]byte, error) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n > maxFrame {
		return buf, fmt.Errorf("writing a frame of %d bytes: %w", n, errFrameTooLarge)
	}
	buf = binary.BigEndian.AppendUint32(buf[:0], uint32(n))
	for _, p := range parts {
		buf = append(buf, p...)
	}
	_, err := w.Write(buf)
	return buf, err
}

// readFrame reads one frame body into buf (grown as needed). A clean end
// of the stream before the first byte is io.EOF; one inside a frame is
// io.ErrUnexpectedEOF.
func readFrame(r *bufio.Reader, buf []byte) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return buf, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return buf, fmt.Errorf("reading a frame of %d bytes: %w", n, errFrameTooLarge)
	}
	if n == 0 {
		return buf, errors.New("empty frame")
	}
	if cap(buf) < int(n) {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return buf, err
	}
	return buf, nil
}

// assignment is what the pool tells a worker, once, before its first
// request: the tool it serves, the capabilities it is restricted to, and
// the environment variables those capabilities add to the ones it was
// started with (see workerEnv).
type assignment struct {
	Tool string   `json:"tool"`
	Caps string   `json:"caps"`
	Env  []string `json:"env,omitempty"`
}

func assignFrame(a assignment) ([]byte, error) {
	b, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("encoding the assignment: %w", err)
	}
	return append([]byte{frameAssign}, b...), nil
}

// assign takes the tool, capabilities and environment of the assignment
// frame body into s and the process's environment.
func (s *spec) assign(body []byte) error {
	if len(body) < 1 || body[0] != frameAssign {
		return errors.New("malformed assignment frame")
	}
	var a assignment
	if err := json.Unmarshal(body[1:], &a); err != nil {
		return fmt.Errorf("assignment: %w", err)
	}
	caps, ok := tool.ParseCapabilities(a.Caps)
	if !ok {
		return fmt.Errorf("assignment: capabilities %q: unknown capability", a.Caps)
	}
	if a.Tool == "" {
		return errors.New("assignment: no tool")
	}
	for _, kv := range a.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return fmt.Errorf("assignment: environment entry %q is not NAME=value", kv)
		}
	}
	for _, kv := range a.Env {
		k, v, _ := strings.Cut(kv, "=")
		if err := os.Setenv(k, v); err != nil {
			return fmt.Errorf("assignment: setting %s: %w", k, err)
		}
	}
	s.toolID, s.caps = a.Tool, caps
	return nil
}

// request is a decoded request frame.
type request struct {
	deadline int64
	id       string
	args     []byte
	// release: the worker should not hold its processor waiting for
	// the next request (see workerPipe and Pool.Call).
	release bool
}

func requestHeader(deadline int64, id string, release bool) ([]byte, error) {
	if len(id) > math.MaxUint16 {
		return nil, fmt.Errorf("tool id of %d bytes is too long", len(id))
	}
	h := make([]byte, 0, 11+len(id))
	if release {
		h = append(h, frameRelease)
	} else {
		h = append(h, frameRequest)
	}
	h = binary.BigEndian.AppendUint64(h, uint64(deadline))
	h = binary.BigEndian.AppendUint16(h, uint16(len(id)))
	return append(h, id...), nil
}

func parseRequest(body []byte) (request, error) {
	if len(body) < 11 || (body[0] != frameRequest && body[0] != frameRelease) {
		return request{}, errors.New("malformed request frame")
	}
	d := int64(binary.BigEndian.Uint64(body[1:9]))
	n := int(binary.BigEndian.Uint16(body[9:11]))
	if len(body) < 11+n {
		return request{}, errors.New("malformed request frame: id past the end")
	}
	return request{deadline: d, id: string(body[11 : 11+n]), args: body[11+n:], release: body[0] == frameRelease}, nil
}

// parseResponse reads a response frame: its kind, 0 for an answer or one
// of the kinds a worker reports (registry.KindArguments, KindTool,
// KindPanic), and its text.
func parseResponse(body []byte) (registry.Kind, string, error) {
	if len(body) < 2 || body[0] != frameResponse {
		return 0, "", errors.New("malformed response frame")
	}
	k := registry.Kind(body[1])
	if k != 0 && !workerKind(k) {
		return 0, "", fmt.Errorf("malformed response frame: kind %d", body[1])
	}
	return k, string(body[2:]), nil
}

// workerKind reports whether k is a kind of failure a worker reports:
// the tool refused its arguments, returned an error, or panicked. The
// others are the pool's to decide.
func workerKind(k registry.Kind) bool {
	return k == registry.KindArguments || k == registry.KindTool || k == registry.KindPanic
}

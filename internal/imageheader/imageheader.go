// Package imageheader reads the format and the size in pixels of a PNG,
// JPEG or GIF image from its header, accepting what image.DecodeConfig
// with the standard library's decoders registered accepts.
//
// The agent only ever looks at an image's header: chat checks that an
// image a tool returns is what its MIME type says before it is shown to
// the model, and toolmcp describes the images of mounted servers with
// their size. image.DecodeConfig would do, but importing image/png,
// image/jpeg and image/gif links their whole decoders (and compress/zlib,
// compress/lzw and the colour palettes) into every program: 236 KB of the
// agent's binary, resident in its memory since the kernel maps a binary's
// pages by large folios. The headers are a few fixed fields.
//
// It checks what the standard library's DecodeConfig checks: for PNG the
// signature, the order, lengths and CRC-32 of the chunks it reads (IHDR,
// and for a paletted image PLTE and tRNS up to the first IDAT) and the
// IHDR's fields; for GIF the version and the screen descriptor with its
// global colour table; for JPEG the markers up to the frame header (SOF0,
// SOF1 or SOF2) and that header's fields, then up to the scan when the
// image is not JFIF, as the standard decoder does.
package imageheader

import (
	"encoding/binary"
	"hash/crc32"
)

// Header is what an image's header tells.
type Header struct {
	// Format is "png", "jpeg" or "gif", as image.DecodeConfig names it.
	Format string
	// Width and Height are the image's size in pixels.
	Width, Height int
}

// Parse reads the header at the start of data. It reports false when
// data is not a PNG, JPEG or GIF image whose header image.DecodeConfig
// would read.
func Parse(data []byte) (Header, bool) {
	switch {
	case len(data) >= 8 && string(data[:8]) == pngSignature:
		return parsePNG(data[8:])
	case len(data) >= 2 && data[0] == 0xff && data[1] == 0xd8:
		return parseJPEG(data[2:])
	case len(data) >= 6 && string(data[:4]) == "GIF8" && data[5] == 'a':
		return parseGIF(data)
	}
	return Header{}, false
}

const pngSignature = "\x89PNG\r\n\x1a\n"

// The stages of a PNG's chunks, as image/png orders them.
const (
	pngStart = iota
	pngSeenIHDR
	pngSeenPLTE
	pngSeenTRNS
)

// PNG colour types.
const (
	pngGray      = 0
	pngTrueColor = 2
	pngPaletted  = 3
	pngGrayAlpha = 4
	pngTrueAlpha = 6
)

// parsePNG reads the chunks after the signature as image/png's
// DecodeConfig does: IHDR, and for a paletted image on to the first tRNS
// or IDAT.
func parsePNG(data []byte) (Header, bool) {
	var (
		h            = Header{Format: "png"}
		stage        = pngStart
		depth, color int
	)
	for {
		if len(data) < 8 {
			return Header{}, false
		}
		length := binary.BigEndian.Uint32(data[:4])
		typ := string(data[4:8])
		if typ == "IDAT" {
			// The first IDAT ends the reading, its data unread.
			if stage < pngSeenIHDR || (stage == pngSeenIHDR && color == pngPaletted) {
				return Header{}, false
			}
			return h, true
		}
		if length > 0x7fffffff || uint64(len(data)) < 8+uint64(length)+4 {
			return Header{}, false
		}
		body := data[8 : 8+length]
		if crc32.ChecksumIEEE(data[4:8+length]) != binary.BigEndian.Uint32(data[8+length:]) {
			return Header{}, false
		}
		data = data[8+length+4:]
		switch typ {
		case "IHDR":
			if stage != pngStart || length != 13 {
				return Header{}, false
			}
			stage = pngSeenIHDR
			w, ht := int32(binary.BigEndian.Uint32(body[0:4])), int32(binary.BigEndian.Uint32(body[4:8]))
			if w <= 0 || ht <= 0 || body[10] != 0 || body[11] != 0 || body[12] > 1 {
				return Header{}, false
			}
			if n := int64(w) * int64(ht); n != (n*8)/8 { // as image/png refuses it
				return Header{}, false
			}
			depth, color = int(body[8]), int(body[9])
			if !pngValidDepth(depth, color) {
				return Header{}, false
			}
			h.Width, h.Height = int(w), int(ht)
		case "PLTE":
			np := int(length / 3)
			if stage != pngSeenIHDR || length%3 != 0 || np <= 0 || np > 256 || np > 1<<depth {
				return Header{}, false
			}
			if color != pngPaletted && color != pngTrueColor && color != pngTrueAlpha {
				return Header{}, false
			}
			stage = pngSeenPLTE
		case "tRNS":
			switch color {
			case pngPaletted:
				if stage != pngSeenPLTE || length > 256 {
					return Header{}, false
				}
			case pngGray:
				if stage != pngSeenIHDR || length != 2 {
					return Header{}, false
				}
			case pngTrueColor:
				if (stage != pngSeenIHDR && stage != pngSeenPLTE) || length != 6 {
					return Header{}, false
				}
			default:
				return Header{}, false
			}
			stage = pngSeenTRNS
		case "IEND":
			return Header{}, false // before IDAT, which ends the reading
		}
		if color == pngPaletted {
			if stage >= pngSeenTRNS {
				return h, true
			}
		} else if stage >= pngSeenIHDR {
			return h, true
		}
	}
}

// pngValidDepth reports whether image/png decodes a bit depth with a
// colour type.
func pngValidDepth(depth, color int) bool {
	switch depth {
	case 1, 2, 4:
		return color == pngGray || color == pngPaletted
	case 8:
		return color == pngGray || color == pngTrueColor || color == pngPaletted || color == pngGrayAlpha || color == pngTrueAlpha
	case 16:
		return color == pngGray || color == pngTrueColor || color == pngGrayAlpha || color == pngTrueAlpha
	}
	return false
}

// parseGIF reads the header and the logical screen descriptor, and checks
// that the global colour table it announces is there.
func parseGIF(data []byte) (Header, bool) {
	if len(data) < 13 || (string(data[:6]) != "GIF87a" && string(data[:6]) != "GIF89a") {
		return Header{}, false
	}
	h := Header{Format: "gif", Width: int(binary.LittleEndian.Uint16(data[6:8])), Height: int(binary.LittleEndian.Uint16(data[8:10]))}
	if fields := data[10]; fields&0x80 != 0 && len(data) < 13+3*(1<<(1+fields&7)) {
		return Header{}, false
	}
	return h, true
}

// JPEG markers.
const (
	jpegSOF0  = 0xc0
	jpegSOF1  = 0xc1
	jpegSOF2  = 0xc2
	jpegDHT   = 0xc4
	jpegRST0  = 0xd0
	jpegRST7  = 0xd7
	jpegEOI   = 0xd9
	jpegSOS   = 0xda
	jpegDQT   = 0xdb
	jpegDRI   = 0xdd
	jpegAPP0  = 0xe0
	jpegAPP15 = 0xef
	jpegCOM   = 0xfe
)

// parseJPEG walks the segments after the start-of-image marker as
// image/jpeg's decoder does when it reads the configuration only.
func parseJPEG(data []byte) (Header, bool) {
	var (
		h     = Header{Format: "jpeg"}
		nComp int
		jfif  bool
	)
	for {
		if len(data) < 2 {
			return Header{}, false
		}
		m0, m1 := data[0], data[1]
		data = data[2:]
		// Extraneous bytes before a marker are skipped, as libjpeg and
		// image/jpeg do.
		for m0 != 0xff {
			if len(data) < 1 {
				return Header{}, false
			}
			m0, m1 = m1, data[0]
			data = data[1:]
		}
		marker := m1
		if marker == 0 {
			continue
		}
		for marker == 0xff {
			if len(data) < 1 {
				return Header{}, false
			}
			marker, data = data[0], data[1:]
		}
		if marker == jpegEOI {
			return Header{}, false
		}
		if jpegRST0 <= marker && marker <= jpegRST7 {
			continue
		}
		if len(data) < 2 {
			return Header{}, false
		}
		n := int(data[0])<<8 + int(data[1]) - 2
		data = data[2:]
		if n < 0 || (marker != jpegSOS && len(data) < n) {
			return Header{}, false
		}
		switch {
		case marker == jpegSOF0 || marker == jpegSOF1 || marker == jpegSOF2:
			if nComp != 0 {
				return Header{}, false
			}
			var ok bool
			if nComp, ok = jpegFrame(data[:n], &h); !ok {
				return Header{}, false
			}
			if jfif {
				return h, true
			}
		case marker == jpegSOS:
			if nComp == 0 {
				return Header{}, false
			}
			return h, true
		case marker == jpegAPP0:
			if n >= 5 {
				jfif = string(data[:5]) == "JFIF\x00"
			}
		case marker == jpegDHT || marker == jpegDQT || marker == jpegDRI || marker == jpegCOM || (jpegAPP0 < marker && marker <= jpegAPP15):
		default:
			return Header{}, false
		}
		data = data[n:]
	}
}

// jpegFrame reads a frame header (SOF0, SOF1 or SOF2) into h and returns
// its number of components, or false where image/jpeg refuses it.
func jpegFrame(b []byte, h *Header) (int, bool) {
	var nComp int
	switch len(b) {
	case 6 + 3*1:
		nComp = 1
	case 6 + 3*3:
		nComp = 3
	case 6 + 3*4:
		nComp = 4
	default:
		return 0, false
	}
	if b[0] != 8 || int(b[5]) != nComp {
		return 0, false
	}
	h.Height = int(b[1])<<8 + int(b[2])
	h.Width = int(b[3])<<8 + int(b[4])
	var ids [4]byte
	var hs, vs [4]int
	for i := range nComp {
		ids[i] = b[6+3*i]
		for j := range i {
			if ids[i] == ids[j] {
				return 0, false
			}
		}
		if b[8+3*i] > 3 { // the quantization table's selector
			return 0, false
		}
		hv := b[7+3*i]
		hf, vf := int(hv>>4), int(hv&0x0f)
		if hf < 1 || 4 < hf || vf < 1 || 4 < vf || hf == 3 || vf == 3 {
			return 0, false
		}
		switch nComp {
		case 1:
			hf, vf = 1, 1
		case 3:
			switch i {
			case 0:
				if vf == 4 {
					return 0, false
				}
			case 1:
				if hs[0]%hf != 0 || vs[0]%vf != 0 {
					return 0, false
				}
			case 2:
				if hs[1] != hf || vs[1] != vf {
					return 0, false
				}
			}
		case 4:
			switch i {
			case 0:
				if hv != 0x11 && hv != 0x22 {
					return 0, false
				}
			case 1, 2:
				if hv != 0x11 {
					return 0, false
				}
			case 3:
				if hs[0] != hf || vs[0] != vf {
					return 0, false
				}
			}
		}
		hs[i], vs[i] = hf, vf
	}
	return nComp, true
}

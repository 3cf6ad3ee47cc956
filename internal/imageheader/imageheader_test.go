package imageheader

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// images returns encoded images of every kind the standard encoders
// write: PNG in each colour type and depth, paletted with and without
// transparency, JPEG in grey, YCbCr and CMYK, GIF with a global colour
// table.
func images(t testing.TB) map[string][]byte {
	t.Helper()
	r := image.Rect(0, 0, 5, 3)
	opaque := color.Palette{color.RGBA{1, 2, 3, 255}, color.RGBA{4, 5, 6, 255}}
	clear := color.Palette{color.NRGBA{1, 2, 3, 0}, color.NRGBA{4, 5, 6, 255}}
	pngs := map[string]image.Image{
		"gray":      image.NewGray(r),
		"gray16":    image.NewGray16(r),
		"rgba":      image.NewRGBA(r),
		"nrgba":     image.NewNRGBA(r),
		"rgba64":    image.NewRGBA64(r),
		"nrgba64":   image.NewNRGBA64(r),
		"paletted":  image.NewPaletted(r, opaque),
		"tRNS":      image.NewPaletted(r, clear),
		"palette16": image.NewPaletted(r, palette.Plan9[:16]),
		"plan9":     image.NewPaletted(r, palette.Plan9),
	}
	out := map[string][]byte{}
	for name, img := range pngs {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		out["png "+name] = b.Bytes()
	}
	for name, img := range map[string]image.Image{
		"gray":  image.NewGray(r),
		"ycbcr": image.NewYCbCr(r, image.YCbCrSubsampleRatio420),
		"444":   image.NewYCbCr(r, image.YCbCrSubsampleRatio444),
		"cmyk":  image.NewCMYK(r),
	} {
		var b bytes.Buffer
		if err := jpeg.Encode(&b, img, nil); err != nil {
			t.Fatal(err)
		}
		out["jpeg "+name] = b.Bytes()
	}
	var b bytes.Buffer
	if err := gif.Encode(&b, image.NewPaletted(r, palette.WebSafe), nil); err != nil {
		t.Fatal(err)
	}
	out["gif"] = b.Bytes()
	return out
}

// std is what image.DecodeConfig says of data.
func std(data []byte) (Header, bool) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Header{}, false
	}
	return Header{Format: format, Width: cfg.Width, Height: cfg.Height}, true
}

// agree fails t when Parse and image.DecodeConfig disagree on data.
func agree(t *testing.T, name string, data []byte) {
	t.Helper()
	wantH, wantOK := std(data)
	gotH, gotOK := Parse(data)
	if gotOK != wantOK || gotH != wantH {
		t.Errorf("%s: Parse = %+v, %v; image.DecodeConfig = %+v, %v", name, gotH, gotOK, wantH, wantOK)
	}
}

// TestWhole checks the images as encoded: each is read, with its size.
func TestWhole(t *testing.T) {
	for name, data := range images(t) {
		h, ok := Parse(data)
		want := Header{Format: name[:min(len(name), len("jpeg"))], Width: 5, Height: 3}
		if name[:3] == "png" || name[:3] == "gif" {
			want.Format = name[:3]
		}
		if !ok {
			t.Errorf("%s: not read", name)
		} else if diff := cmp.Diff(want, h); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		agree(t, name, data)
	}
}

// TestCutAndDamaged checks that Parse agrees with image.DecodeConfig on
// every prefix of each image and on each image with any one of its first
// bytes changed: the limits of every field and chunk it reads.
func TestCutAndDamaged(t *testing.T) {
	for name, data := range images(t) {
		for n := range len(data) {
			agree(t, name+" cut", data[:n])
		}
		for i := range min(len(data), 400) {
			for _, v := range []byte{0, 1, 2, 3, 4, 5, 6, 8, 9, 16, 0x11, 0x22, 0x31, 0x7f, 0x80, 0xc0, 0xc4, 0xd0, 0xd9, 0xda, 0xdb, 0xe0, 0xee, 0xfe, 0xff} {
				d := bytes.Clone(data)
				d[i] = v
				agree(t, name+" damaged", d)
			}
		}
	}
}

// TestHandMade covers headers the encoders do not write.
func TestHandMade(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":         nil,
		"GIF87a":        []byte("GIF87a\x02\x00\x03\x00\x00\x00\x00"),
		"GIF8xa":        []byte("GIF8xa\x02\x00\x03\x00\x00\x00\x00"),
		"gif no table":  []byte("GIF89a\x02\x00\x03\x00\x80\x00\x00\x01\x02\x03\x04\x05"),
		"gif table":     []byte("GIF89a\x02\x00\x03\x00\x80\x00\x00\x01\x02\x03\x04\x05\x06"),
		"gif short":     []byte("GIF89a"),
		"jpeg SOS only": []byte("\xff\xd8\xff\xda\x00\x02"),
		"jpeg EOI":      []byte("\xff\xd8\xff\xd9"),
		"jpeg junk":     []byte("\xff\xd8\x01\x02\xff\xd9"),
		"jpeg fill":     []byte("\xff\xd8\xff\xff\xff\xc0\x00\x0b\x08\x00\x03\x00\x05\x01\x01\x11\x00\xff\xda\x00\x02"),
		"jpeg RST":      []byte("\xff\xd8\xff\xd0\xff\xc0\x00\x0b\x08\x00\x03\x00\x05\x01\x01\x11\x00\xff\xda\x00\x02"),
		"jpeg 00":       []byte("\xff\xd8\xff\x00\xff\xc0\x00\x0b\x08\x00\x03\x00\x05\x01\x01\x11\x00\xff\xda\x00\x02"),
		"jpeg 2 SOF":    []byte("\xff\xd8\xff\xc0\x00\x0b\x08\x00\x03\x00\x05\x01\x01\x11\x00\xff\xc0\x00\x0b\x08\x00\x03\x00\x05\x01\x01\x11\x00\xff\xda\x00\x02"),
		"jpeg JFIF":     []byte("\xff\xd8\xff\xe0\x00\x07JFIF\x00\xff\xc0\x00\x0b\x08\x00\x03\x00\x05\x01\x01\x11\x00"),
		"jpeg JFIF, short APP0": []byte("\xff\xd8\xff\xe0\x00\x07JFIF\x00\xff\xe0\x00\x03\x00" +
			"\xff\xc0\x00\x0b\x08\x00\x03\x00\x05\x01\x01\x11\x00"),
		"jpeg SOF3":        []byte("\xff\xd8\xff\xc3\x00\x0b\x08\x00\x03\x00\x05\x01\x01\x11\x00\xff\xda\x00\x02"),
		"jpeg low marker":  []byte("\xff\xd8\xff\x10\x00\x02\xff\xda\x00\x02"),
		"jpeg short len":   []byte("\xff\xd8\xff\xe1\x00\x01"),
		"png IDAT first":   append([]byte(pngSignature), 0, 0, 0, 0, 'I', 'D', 'A', 'T'),
		"png huge chunk":   append([]byte(pngSignature), 0x80, 0, 0, 0, 'a', 'b', 'c', 'd'),
		"png sig only":     []byte(pngSignature),
		"not an image":     []byte("<html>"),
		"webp is not read": []byte("RIFF\x00\x00\x00\x00WEBPVP8 "),
	} {
		agree(t, name, data)
	}
}

// FuzzAgrees checks Parse against image.DecodeConfig on any input.
func FuzzAgrees(f *testing.F) {
	for _, data := range images(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { agree(t, "fuzz", data) })
}

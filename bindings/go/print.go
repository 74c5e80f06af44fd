package stride

// #include "stride.h"
import "C"

import (
	"fmt"
	"strings"
	"unsafe"
)

// lineWidth is NumPy's default line width, which String and GoString keep within.
const lineWidth = 75

// String is the values as NumPy's str() of an array writes them, e.g.
// "[[0. 1.]\n [2. 3.]]", from the library's st_tensor_format (a 0-d float
// as str() of the number: "2.0" for array2string's "2."; bools as Go writes
// them); "stride.Tensor(released)" after Release.
func (t *Tensor) String() string {
	text, err := t.text("String", lineWidth)
	if err != nil {
		return describe(err)
	}
	if shape, _ := t.Shape(); len(shape) == 0 && strings.HasSuffix(text, ".") {
		text += "0"
	}
	return text
}

// GoString (the %#v verb) is String's text with the dtype, as NumPy's repr()
// wraps it: stride.Tensor([[0. 1.]\n               [2. 3.]], dtype=float32),
// and the device unless the CPU. The text comes narrower by the width of
// "stride.Tensor(" and the comma after it, and its lines after the first
// move right under the "[" of the first.
func (t *Tensor) GoString() string {
	const prefix = "stride.Tensor("
	shape, err := t.Shape()
	if err != nil {
		return describe(err)
	}
	body := ""
	if numel, _ := t.Numel(); numel == 0 && !(len(shape) == 1 && shape[0] == 0) {
		body = fmt.Sprintf("[], shape=%v", shape)
	} else {
		text, err := t.text("GoString", lineWidth-len(prefix)-1)
		if err != nil {
			return describe(err)
		}
		lines := strings.Split(text, "\n")
		for i := 1; i < len(lines); i++ {
			if lines[i] != "" {
				lines[i] = strings.Repeat(" ", len(prefix)) + lines[i]
			}
		}
		body = strings.Join(lines, "\n")
	}
	dtype, _ := t.DType()
	extra := "dtype=" + dtype.String()
	if dev, _ := t.Device(); dev != CPUDevice {
		extra += ", device=" + dev.String()
	}
	text := prefix + body + ","
	last := len(text) - (strings.LastIndex(text, "\n") + 1)
	spacer := " "
	if last+len(extra)+2 > lineWidth {
		spacer = "\n" + strings.Repeat(" ", len(prefix))
	}
	return text + spacer + extra + ")"
}

// text is st_tensor_format's text of t's values (NumPy's array2string), no
// line wider than width; bools as Go writes them, true and false (NumPy's
// True and False, of the same widths).
func (t *Tensor) text(method string, width int) (string, error) {
	opts := C.st_format_options{struct_size: C.size_t(unsafe.Sizeof(C.st_format_options{})), linewidth: C.int32_t(width)}
	buf := make([]byte, 256)
	for {
		// The size asked for first, then the size needed (another goroutine may change the values).
		var needed C.size_t
		err := t.use(method, func(h C.st_tensor) C.st_status {
			return C.st_tensor_format(h, &opts, (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &needed)
		})
		if e, ok := err.(*Error); ok && e.Status == StatusOutOfBounds {
			buf = make([]byte, needed)
			continue
		}
		if err != nil {
			return "", err
		}
		text := string(buf[:needed-1])
		if dtype, _ := t.DType(); dtype == Bool {
			text = strings.NewReplacer("True", "true", "False", "false").Replace(text)
		}
		return text, nil
	}
}

func describe(err error) string {
	if e, ok := err.(*Error); ok && e.Status == StatusInvalidHandle {
		return "stride.Tensor(released)"
	}
	return fmt.Sprintf("stride.Tensor(<%v>)", err)
}

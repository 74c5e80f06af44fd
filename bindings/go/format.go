package stride

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// Printing a tensor's values as NumPy prints an array (String and GoString).
// NumPy's default rules: lines of at most 75 characters; more than 1000
// elements summarized with "..." keeping 3 items at each end of every longer
// dim; floats in the shortest form that reads back as the same value of
// their dtype, at most 8 digits after the point, scientific when the values
// span too much; every column right-aligned.
const (
	lineWidth = 75
	threshold = 1000
	edgeItems = 3
	precision = 8
)

// shown is what to print: values in row-major order of shape (exactly one
// of the slices is set); cut[d] says dim d shows edgeItems items at each end.
type shown struct {
	bools     []bool
	ints      []string // in decimal: int64 and uint64 alike
	floats    []float64
	complexes []complex128
	shape     []int64
	cut       []bool
	dtype     DType
}

// roundBinary rounds x to nearest even in a binary format of manBits
// mantissa bits whose smallest normal number is 2**minExp; beyond max, ±inf.
func roundBinary(x float64, manBits, minExp int, max float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	_, e := math.Frexp(x)
	e--
	if e < minExp {
		e = minExp
	}
	ulp := math.Ldexp(1, e-manBits)
	q := x / ulp
	f := math.Floor(q)
	if q-f > 0.5 || (q-f == 0.5 && math.Mod(f, 2) != 0) {
		f++
	}
	if r := f * ulp; math.Abs(r) <= max {
		return r
	}
	return math.Copysign(math.Inf(1), x)
}

// stored is the value x becomes when stored as dtype.
func stored(x float64, dtype DType) float64 {
	switch dtype {
	case Float16:
		return roundBinary(x, 10, -14, 65504)
	case BFloat16:
		return roundBinary(x, 7, -126, 3.3895313892515355e38)
	case Float8E5M2:
		return roundBinary(x, 2, -14, 57344)
	case Float8E4M3FN:
		// No infinity: what rounds beyond 448 is NaN.
		if r := roundBinary(x, 3, -6, 448); !math.IsInf(r, 0) {
			return r
		}
		return math.NaN()
	case Float32, Complex64:
		return float64(float32(x))
	}
	return x
}

// shortest is the digits of the shortest decimal that reads back as |x| in
// dtype, and the decimal exponent of the first digit.
func shortest(x float64, dtype DType) (string, int) {
	x = math.Abs(x)
	var s string
	switch dtype {
	case Float64, Complex128:
		s = strconv.FormatFloat(x, 'e', -1, 64)
	case Float32, Complex64:
		s = strconv.FormatFloat(x, 'e', -1, 32)
	default:
		for p := 0; p < 17; p++ {
			s = strconv.FormatFloat(x, 'e', p, 64)
			if v, _ := strconv.ParseFloat(s, 64); stored(v, dtype) == x {
				break
			}
		}
	}
	mantissa, exp, _ := strings.Cut(s, "e")
	digits := strings.TrimRight(strings.ReplaceAll(mantissa, ".", ""), "0")
	if digits == "" {
		digits = "0"
	}
	e, _ := strconv.Atoi(exp)
	return digits, e
}

// positional is |x| written without an exponent: the integer part and the fraction digits.
func positional(x float64, dtype DType) (string, string) {
	digits, e := shortest(x, dtype)
	var whole, frac string
	switch {
	case e < 0:
		whole, frac = "0", strings.Repeat("0", -e-1)+digits
	case len(digits) <= e+1:
		// Every digit before the point is written, exactly (the value is an integer).
		whole = strconv.FormatFloat(math.Abs(x), 'f', 0, 64)
	default:
		whole, frac = digits[:e+1], digits[e+1:]
	}
	if len(frac) > precision {
		whole, frac, _ = strings.Cut(strconv.FormatFloat(math.Abs(x), 'f', precision, 64), ".")
		frac = strings.TrimRight(frac, "0")
	}
	return whole, frac
}

type floatFormat struct {
	dtype                             DType
	exp, sign                         bool
	precision, expDigits, left, right int
}

func newFloatFormat(values []float64, dtype DType, sign bool) floatFormat {
	f := floatFormat{dtype: dtype, sign: sign, expDigits: 2}
	lo, hi, finite := math.Inf(1), 0.0, 0
	for _, v := range values {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		finite++
		if a := math.Abs(v); a != 0 {
			lo, hi = math.Min(lo, a), math.Max(hi, a)
		}
	}
	f.exp = hi > 0 && (hi >= 1e8 || lo < 1e-4 || hi/lo > 1e3)
	for _, v := range values {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		signWidth := 0
		if math.Signbit(v) || sign {
			signWidth = 1
		}
		if f.exp {
			digits, e := shortest(v, dtype)
			f.precision = max(f.precision, min(len(digits)-1, precision))
			f.expDigits = max(f.expDigits, len(strconv.Itoa(abs(e))))
			f.left = max(f.left, 1+signWidth)
		} else {
			whole, frac := positional(v, dtype)
			f.left = max(f.left, len(whole)+signWidth)
			f.right = max(f.right, len(frac))
		}
	}
	if f.exp {
		f.right = f.expDigits + 2 + f.precision
	}
	if finite != len(values) {
		neginf := 0
		for _, v := range values {
			if sign || math.IsInf(v, -1) {
				neginf = 1
			}
		}
		offset := f.right + 1
		f.left = max(f.left, max(3-offset, 3+neginf-offset))
	}
	return f
}

func (f floatFormat) text(v float64) string {
	sign := ""
	if math.Signbit(v) && !math.IsNaN(v) {
		sign = "-"
	} else if f.sign {
		sign = "+"
	}
	width := f.left + f.right + 1
	switch {
	case math.IsNaN(v):
		return fmt.Sprintf("%*s", width, sign+"nan")
	case math.IsInf(v, 0):
		return fmt.Sprintf("%*s", width, sign+"inf")
	case f.exp:
		s := strconv.FormatFloat(math.Abs(v), 'e', f.precision, 64)
		mantissa, exp, _ := strings.Cut(s, "e")
		if !strings.Contains(mantissa, ".") {
			mantissa += "."
		}
		e, _ := strconv.Atoi(exp)
		esign := "+"
		if e < 0 {
			esign = "-"
		}
		return fmt.Sprintf("%*s", width, fmt.Sprintf("%s%se%s%0*d", sign, mantissa, esign, f.expDigits, abs(e)))
	}
	whole, frac := positional(v, f.dtype)
	return fmt.Sprintf("%*s.%-*s", f.left, sign+whole, f.right, frac)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// words is each shown value as text, padded to a common width.
func (s *shown) words() []string {
	var out []string
	switch {
	case s.bools != nil:
		width := 4
		for _, b := range s.bools {
			if !b {
				width = 5
			}
		}
		for _, b := range s.bools {
			out = append(out, fmt.Sprintf("%*t", width, b))
		}
	case s.ints != nil:
		width := 0
		for _, v := range s.ints {
			width = max(width, len(v))
		}
		for _, v := range s.ints {
			out = append(out, fmt.Sprintf("%*s", width, v))
		}
	case s.floats != nil:
		f := newFloatFormat(s.floats, s.dtype, false)
		for _, v := range s.floats {
			out = append(out, f.text(v))
		}
	default:
		re, im := make([]float64, len(s.complexes)), make([]float64, len(s.complexes))
		for i, c := range s.complexes {
			re[i], im[i] = real(c), imag(c)
		}
		fr, fi := newFloatFormat(re, s.dtype, false), newFloatFormat(im, s.dtype, true)
		for i := range s.complexes {
			iText := fi.text(im[i])
			cut := len(strings.TrimRight(iText, " "))
			out = append(out, fr.text(re[i])+iText[:cut]+"j"+iText[cut:])
		}
	}
	return out
}

func extendLine(s, line *strings.Builder, word string, width int, indent string) {
	if line.Len()+len(word) > width && line.Len() > len(indent) {
		s.WriteString(strings.TrimRight(line.String(), " "))
		s.WriteString("\n")
		line.Reset()
		line.WriteString(indent)
	}
	line.WriteString(word)
}

// layout is NumPy's _formatArray: nested brackets, wrapped lines, "..." where dims are cut.
func (s *shown) layout(words []string, dim, offset int, indent string, width int, sep string) string {
	ndim := len(s.shape)
	if dim == ndim {
		return words[offset]
	}
	n := int(s.shape[dim])
	step := 1
	for _, d := range s.shape[dim+1:] {
		step *= int(d)
	}
	cut := -1
	if s.cut[dim] {
		cut = edgeItems
	}
	var out strings.Builder
	if dim == ndim-1 {
		elemWidth := width - max(len(strings.TrimRight(sep, " ")), 1)
		var line strings.Builder
		line.WriteString(indent)
		for i := 0; i < n; i++ {
			if i == cut {
				extendLine(&out, &line, "...", elemWidth, indent)
				line.WriteString(sep)
			}
			extendLine(&out, &line, s.layout(words, dim+1, offset+i*step, indent+" ", width-1, sep), elemWidth, indent)
			if i+1 < n {
				line.WriteString(sep)
			}
		}
		out.WriteString(line.String())
	} else {
		lineSep := strings.TrimRight(sep, " ") + strings.Repeat("\n", ndim-dim-1)
		for i := 0; i < n; i++ {
			if i == cut {
				out.WriteString(indent + "..." + lineSep)
			}
			out.WriteString(indent + s.layout(words, dim+1, offset+i*step, indent+" ", width-1, sep))
			if i+1 < n {
				out.WriteString(lineSep)
			}
		}
	}
	return "[" + out.String()[len(indent):] + "]"
}

// format is the values as NumPy's array2string writes them: sep between
// items, continuation lines indented by prefix characters, suffix
// characters kept free at the end of the last line.
func (s *shown) format(sep string, prefix, suffix int) string {
	for _, n := range s.shape {
		if n == 0 {
			return "[]"
		}
	}
	words := s.words()
	if len(s.shape) == 0 {
		return strings.TrimSpace(words[0])
	}
	return s.layout(words, 0, 0, strings.Repeat(" ", prefix+1), lineWidth-suffix, sep)
}

// values reads what to print through a dtype that holds each value exactly;
// with summarize, only the edge items of the long dims of a large tensor.
func (t *Tensor) values(summarize bool) (*shown, error) {
	shape, err := t.Shape()
	if err != nil {
		return nil, err
	}
	dtype, _ := t.DType()
	carrier := Int64
	switch dtype {
	case Bool:
		carrier = Bool
	case Float16, BFloat16, Float32, Float64, Float8E4M3FN, Float8E5M2:
		carrier = Float64
	case Complex64, Complex128:
		carrier = Complex128
	case Uint8, Uint16, Uint32, Uint64:
		carrier = Uint64
	}
	numel, _ := t.Numel()
	s := &shown{shape: make([]int64, len(shape)), cut: make([]bool, len(shape)), dtype: dtype}
	var cutDims []int
	for d, n := range shape {
		s.shape[d] = n
		if summarize && numel > threshold && n > 2*edgeItems {
			s.cut[d], s.shape[d] = true, 2*edgeItems
			cutDims = append(cutDims, d)
		}
	}
	out, err := New(s.shape, carrier, CPUDevice)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	// One copy for each choice of the leading or the trailing items along the cut dims.
	for choice := 0; choice < 1<<len(cutDims); choice++ {
		if err := copyPiece(t, out, shape, cutDims, choice); err != nil {
			return nil, err
		}
	}
	numel, _ = out.Numel()
	n := int(numel)
	if n == 0 {
		s.ints = []string{}
		return s, nil
	}
	// The library wrote out (contiguous, on the CPU); nothing else sees it.
	p, _ := out.DataPtr()
	switch carrier {
	case Bool:
		for _, b := range unsafe.Slice((*uint8)(p), n) {
			s.bools = append(s.bools, b != 0)
		}
	case Float64:
		s.floats = append([]float64(nil), unsafe.Slice((*float64)(p), n)...)
	case Complex128:
		s.complexes = append([]complex128(nil), unsafe.Slice((*complex128)(p), n)...)
	case Uint64:
		for _, v := range unsafe.Slice((*uint64)(p), n) {
			s.ints = append(s.ints, strconv.FormatUint(v, 10))
		}
	default:
		for _, v := range unsafe.Slice((*int64)(p), n) {
			s.ints = append(s.ints, strconv.FormatInt(v, 10))
		}
	}
	return s, nil
}

func copyPiece(t, out *Tensor, shape []int64, cutDims []int, choice int) error {
	src, err := t.Retain()
	if err != nil {
		return err
	}
	dst, err := out.Retain()
	if err != nil {
		src.Release()
		return err
	}
	for bit, d := range cutDims {
		from, at := int64(0), int64(0)
		if choice>>bit&1 == 1 {
			from, at = shape[d]-edgeItems, edgeItems
		}
		s, err1 := src.Slice(int32(d), from, from+edgeItems, 1)
		o, err2 := dst.Slice(int32(d), at, at+edgeItems, 1)
		src.Release()
		dst.Release()
		if err1 != nil || err2 != nil {
			if s != nil {
				s.Release()
			}
			if o != nil {
				o.Release()
			}
			if err1 != nil {
				return err1
			}
			return err2
		}
		src, dst = s, o
	}
	defer src.Release()
	defer dst.Release()
	return dst.CopyFrom(src, false)
}

// String is the values as NumPy's str() of an array writes them, e.g.
// "[[0. 1.]\n [2. 3.]]"; "stride.Tensor(released)" after Release.
func (t *Tensor) String() string {
	s, err := t.values(true)
	if err != nil {
		return describe(err)
	}
	text := s.format(" ", 0, 0)
	if len(s.shape) == 0 && strings.HasSuffix(text, ".") {
		text += "0"
	}
	return text
}

// GoString (the %#v verb) is the values with the dtype, as NumPy's repr():
// stride.Tensor([[0., 1.], [2., 3.]], dtype=float32), and the device unless the CPU.
func (t *Tensor) GoString() string {
	const prefix = "stride.Tensor("
	s, err := t.values(true)
	if err != nil {
		return describe(err)
	}
	body := s.format(", ", len(prefix), 1)
	if body == "[]" && !(len(s.shape) == 1 && s.shape[0] == 0) {
		body = fmt.Sprintf("[], shape=%v", s.shape)
	}
	extra := "dtype=" + s.dtype.String()
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

func describe(err error) string {
	if e, ok := err.(*Error); ok && e.Status == StatusInvalidHandle {
		return "stride.Tensor(released)"
	}
	return fmt.Sprintf("stride.Tensor(<%v>)", err)
}

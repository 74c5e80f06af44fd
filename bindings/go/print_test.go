package stride

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// The expected strings are NumPy 1.24's str(a), and its
// array2string(a, prefix="stride.Tensor(", suffix=",") inside
// stride.Tensor(..., dtype=...), for the same arrays (bools as Go writes them).

func floats(values []float64, shape []int64, dtype DType) *Tensor {
	x := must(FromSlice(values, shape))
	defer x.Release()
	return must(x.To(dtype, CPUDevice, Preserve))
}

func expectPrints(t *testing.T, x *Tensor, str, repr string) {
	t.Helper()
	if got := fmt.Sprint(x); got != str {
		t.Errorf("String:\n%s\nwant\n%s", got, str)
	}
	if got := fmt.Sprintf("%#v", x); got != repr {
		t.Errorf("GoString:\n%s\nwant\n%s", got, repr)
	}
}

func TestPrintsFloatsAsNumPy(t *testing.T) {
	a := floats([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []int64{3, 4}, Float32)
	expectPrints(t, a, "[[ 0.  1.  2.  3.]\n [ 4.  5.  6.  7.]\n [ 8.  9. 10. 11.]]",
		"stride.Tensor([[ 0.  1.  2.  3.]\n               [ 4.  5.  6.  7.]\n               [ 8.  9. 10. 11.]], dtype=float32)")
	expectPrints(t, floats([]float64{math.NaN(), 1.5, math.Inf(-1), math.Inf(1)}, []int64{4}, Float64),
		"[ nan  1.5 -inf  inf]", "stride.Tensor([ nan  1.5 -inf  inf], dtype=float64)")
	expectPrints(t, floats([]float64{0.1, 65504, -2.5}, []int64{3}, Float16), "[ 1.00e-01  6.55e+04 -2.50e+00]",
		"stride.Tensor([ 1.00e-01  6.55e+04 -2.50e+00], dtype=float16)")
	// 0.1 is 0.10009765625 in bfloat16 and 0.2 is 0.2001953125: NumPy's float32 array of those.
	if got := floats([]float64{0.1, 0.2, 1.5}, []int64{3}, BFloat16).String(); got != "[0.10009766 0.20019531 1.5       ]" {
		t.Errorf("bfloat16: %s", got)
	}
	expectPrints(t, floats([]float64{3.5}, nil, Float32), "3.5", "stride.Tensor(3.5, dtype=float32)")
	expectPrints(t, floats([]float64{2}, nil, Float64), "2.0", "stride.Tensor(2., dtype=float64)")
}

func TestPrintsLongAndLargeTensors(t *testing.T) {
	values := make([]float64, 100)
	for i := range values {
		values[i] = float64(i)
	}
	x := floats(values, []int64{100}, Float64)
	if got := strings.Split(x.String(), "\n")[1]; got != " 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29. 30. 31. 32. 33. 34. 35." {
		t.Errorf("wrapped line %q", got)
	}
	if got := strings.Split(fmt.Sprintf("%#v", x), "\n")[1]; got != "               14. 15. 16. 17. 18. 19. 20. 21. 22. 23. 24. 25. 26. 27." {
		t.Errorf("wrapped GoString line %q", got)
	}
	ints := make([]int64, 2000)
	for i := range ints {
		ints[i] = int64(i) - 1000
	}
	big := must(FromSlice(ints, []int64{2, 1000}))
	expectPrints(t, big, "[[-1000  -999  -998 ...    -3    -2    -1]\n [    0     1     2 ...   997   998   999]]",
		"stride.Tensor([[-1000  -999  -998 ...    -3    -2    -1]\n"+
			"               [    0     1     2 ...   997   998   999]], dtype=int64)")
	flipped := must(big.Flip(1))
	if !strings.HasPrefix(flipped.String(), "[[   -1    -2    -3 ...  -998  -999 -1000]") {
		t.Errorf("flipped: %s", flipped)
	}
}

func TestPrintsOtherDTypes(t *testing.T) {
	c := must(FromSlice([]complex64{1 + 2i, 3.5 - 1i, complex(float32(math.Copysign(0, -1)), -0.25)}, []int64{3}))
	expectPrints(t, c, "[ 1. +2.j    3.5-1.j   -0. -0.25j]",
		"stride.Tensor([ 1. +2.j    3.5-1.j   -0. -0.25j], dtype=complex64)")
	expectPrints(t, must(FromSlice([]bool{true, false, true}, []int64{3})), "[ true false  true]",
		"stride.Tensor([ true false  true], dtype=bool)")
	expectPrints(t, must(FromSlice([]uint8{3, 200}, []int64{2, 1})), "[[  3]\n [200]]",
		"stride.Tensor([[  3]\n               [200]], dtype=uint8)")
	expectPrints(t, must(New([]int64{2, 0}, Float32, CPUDevice)), "[]",
		"stride.Tensor([], shape=[2 0], dtype=float32)")
}

func TestReleasedTensor(t *testing.T) {
	x := must(New([]int64{2}, Float32, CPUDevice))
	if x.Released() {
		t.Fatal("a new tensor is not released")
	}
	x.Release()
	if !x.Released() || x.String() != "stride.Tensor(released)" || fmt.Sprintf("%#v", x) != "stride.Tensor(released)" {
		t.Fatalf("released: %v %s", x.Released(), x)
	}
}

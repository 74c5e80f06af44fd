package stride

import (
	"errors"
	"fmt"
	"testing"
)

// must returns v, or panics with err: the test binary then fails, naming the call.
func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("unexpected error: %v", err))
	}
	return v
}

func expectStatus(t *testing.T, err error, want *Error) *Error {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got error %v, want status %s", err, want.Status)
	}
	var e *Error
	errors.As(err, &e)
	return e
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func arange(shape ...int64) *Tensor {
	n := int64(1)
	for _, s := range shape {
		n *= s
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(i)
	}
	return must(FromSlice(data, shape))
}

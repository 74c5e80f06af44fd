package stride

// #include "stride.h"
import "C"

import (
	"fmt"
	"runtime"
	"strings"
)

// String is the library's name for the status, e.g. "ST_ERROR_OVERLAP".
func (s Status) String() string {
	return C.GoString(C.st_status_name(C.st_status(s)))
}

// Error is a failed call: the status, and a message that starts with the
// method the caller called ("Fill: ") and goes on with what the library or
// the binding found, naming the argument and the values involved. A call
// on a released tensor says so: "Fill: the tensor was released".
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s", e.Status, e.Message)
}

// Is makes errors.Is(err, stride.ErrOverlap) match any error of that status.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Message == "" && t.Status == e.Status
}

// call runs one C call and, on failure, reads the message on the same OS
// thread: the library keeps the message per thread, and a goroutine may
// otherwise move between the two calls. The error names method, the
// binding's function the caller called, and keeps the library's message
// after it, less its leading C function name ("st_fill: "), which the
// caller never wrote.
func call(method string, f func() C.st_status) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := f()
	if s == C.ST_OK {
		return nil
	}
	return &Error{Status: Status(s), Message: method + ": " + withoutCName(C.GoString(C.st_last_error_message()))}
}

// withoutCName is message less a leading "st_name: ".
func withoutCName(message string) string {
	name, rest, found := strings.Cut(message, ": ")
	if !found || !strings.HasPrefix(name, "st_") {
		return message
	}
	for _, r := range name {
		if r != '_' && !('a' <= r && r <= 'z') && !('A' <= r && r <= 'Z') && !('0' <= r && r <= '9') {
			return message
		}
	}
	return rest
}

// errorf is an error the binding finds itself, under method's name.
func errorf(status Status, method, format string, args ...any) error {
	return &Error{Status: status, Message: method + ": " + fmt.Sprintf(format, args...)}
}

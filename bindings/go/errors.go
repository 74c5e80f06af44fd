package stride

// #include "stride.h"
import "C"

import (
	"fmt"
	"runtime"
)

// String is the library's name for the status, e.g. "ST_ERROR_OVERLAP".
func (s Status) String() string {
	return C.GoString(C.st_status_name(C.st_status(s)))
}

// Error is a failed call: the status and the library's message, which
// names the function, the argument and the values involved.
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
// otherwise move between the two calls.
func call(f func() C.st_status) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := f()
	if s == C.ST_OK {
		return nil
	}
	return &Error{Status: Status(s), Message: C.GoString(C.st_last_error_message())}
}

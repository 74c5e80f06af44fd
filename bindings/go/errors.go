package stride

// #include "stride.h"
import "C"

import (
	"fmt"
	"runtime"
)

// Status is the library's st_status: what kind of failure.
type Status int32

// The values are the header's (cgo reads them from stride.h).
const (
	StatusOK                Status = C.ST_OK
	StatusInvalidArgument   Status = C.ST_ERROR_INVALID_ARGUMENT
	StatusInvalidHandle     Status = C.ST_ERROR_INVALID_HANDLE
	StatusOutOfMemory       Status = C.ST_ERROR_OUT_OF_MEMORY
	StatusShapeMismatch     Status = C.ST_ERROR_SHAPE_MISMATCH
	StatusUnsupportedDtype  Status = C.ST_ERROR_UNSUPPORTED_DTYPE
	StatusDeviceUnavailable Status = C.ST_ERROR_DEVICE_UNAVAILABLE
	StatusOverlap           Status = C.ST_ERROR_OVERLAP
	StatusOutOfBounds       Status = C.ST_ERROR_OUT_OF_BOUNDS
	StatusNotImplemented    Status = C.ST_ERROR_NOT_IMPLEMENTED
	StatusDeviceFailure     Status = C.ST_ERROR_DEVICE_FAILURE
	StatusInternal          Status = C.ST_ERROR_INTERNAL
	StatusReadOnly          Status = C.ST_ERROR_READ_ONLY
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

// Targets for errors.Is, one per status.
var (
	ErrInvalidArgument   = &Error{Status: StatusInvalidArgument}
	ErrInvalidHandle     = &Error{Status: StatusInvalidHandle}
	ErrOutOfMemory       = &Error{Status: StatusOutOfMemory}
	ErrShapeMismatch     = &Error{Status: StatusShapeMismatch}
	ErrUnsupportedDtype  = &Error{Status: StatusUnsupportedDtype}
	ErrDeviceUnavailable = &Error{Status: StatusDeviceUnavailable}
	ErrOverlap           = &Error{Status: StatusOverlap}
	ErrOutOfBounds       = &Error{Status: StatusOutOfBounds}
	ErrNotImplemented    = &Error{Status: StatusNotImplemented}
	ErrDeviceFailure     = &Error{Status: StatusDeviceFailure}
	ErrInternal          = &Error{Status: StatusInternal}
	ErrReadOnly          = &Error{Status: StatusReadOnly}
)

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

package wirejson

import (
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Instant is a request's date-time field as a time: nil when it was not
// sent, VALIDATION_ERROR naming the field when it is out of range.
func Instant(field string, ts *timestamppb.Timestamp) (*time.Time, error) {
	if ts == nil {
		return nil, nil
	}
	if err := ts.CheckValid(); err != nil {
		return nil, apierr.New(apierr.ValidationError, field+": must be a valid date-time")
	}
	t := ts.AsTime()
	return &t, nil
}

package returns

import (
	"time"

	"github.com/mallplatform/partnerapi/internal/deadline"
)

// SubjectName names the returns' deadlines in logs and job kinds.
const SubjectName = "returns"

// NewSubject is the returns' part in the deadline mechanism: the store's
// conditional moves, the machine's automatic moves (Auto), and record, the
// event of each automatic move (return.approved, .cancelled, .refunded),
// written in the move's transaction.
func NewSubject(store Store, record deadline.Recorder[*Return], inTx deadline.TxRunner) *deadline.Subject[*Return] {
	return &deadline.Subject[*Return]{
		Name:   SubjectName,
		Store:  store,
		Rule:   func(r *Return, now time.Time) (deadline.Move, bool) { return Auto(r.State, now) },
		Record: record,
		InTx:   inTx,
	}
}

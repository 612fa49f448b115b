package shipping

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/shipping/label"
)

// labelUnavailable is the answer for an order with no booked shipment: none
// was booked, the booking is still in doubt (PENDING), or it was voided.
const labelUnavailable = errorsv1.ErrorCode_ERROR_CODE_SHIPPING_LABEL_UNAVAILABLE

// Label formats and their media types.
const (
	LabelPDF = "pdf"
	LabelZPL = "zpl"

	MediaPDF = "application/pdf"
	MediaZPL = "application/zpl"
)

// Document is a rendered label document.
type Document struct {
	ContentType string
	Data        []byte
	// ETag is a hash of Data: the same booking printed the same way has
	// the same bytes (the renderer is deterministic and the document's
	// creation date is the booking's), so the tag changes only with them.
	ETag string
}

// Label prints the calling seller's order's label in format (pdf, zpl) on
// size (A6, 4x6); "" picks pdf and A6. Another seller's order is
// NOT_FOUND; an order without a booked shipment is
// SHIPPING_LABEL_UNAVAILABLE.
func (s *Service) Label(ctx context.Context, orderID, format, size string) (Document, error) {
	if format == "" {
		format = LabelPDF
	}
	if size == "" {
		size = string(label.A6)
	}
	sz, err := label.ParseSize(size)
	if err != nil || format != LabelPDF && format != LabelZPL {
		return Document{}, apierr.New(apierr.ValidationError, "format must be pdf or zpl and size A6 or 4x6")
	}
	labels, booked, err := s.labels(ctx, []string{orderID})
	if err != nil {
		return Document{}, err
	}
	var buf bytes.Buffer
	doc := Document{ContentType: MediaPDF}
	if format == LabelZPL {
		doc.ContentType = MediaZPL
		err = label.RenderZPL(&buf, sz, labels[0])
	} else {
		err = label.RenderPDF(&buf, sz, labels, label.PDFOptions{CreationDate: booked})
	}
	if err != nil {
		return Document{}, err
	}
	doc.Data = buf.Bytes()
	doc.ETag = documentTag(doc.Data)
	return doc, nil
}

// Labels prints the calling seller's orders' labels in one A6 PDF, a page
// per order in the order given (1 to label.MaxPDFLabels, each once). The
// first order not found is NOT_FOUND, the first without a booked shipment
// SHIPPING_LABEL_UNAVAILABLE, each naming the order.
func (s *Service) Labels(ctx context.Context, orderIDs []string) (Document, error) {
	if len(orderIDs) == 0 || len(orderIDs) > label.MaxPDFLabels {
		return Document{}, apierr.Newf(apierr.ValidationError, "orderIds: 1 to %d orders", label.MaxPDFLabels)
	}
	labels, booked, err := s.labels(ctx, orderIDs)
	if err != nil {
		return Document{}, err
	}
	var buf bytes.Buffer
	if err := label.RenderPDF(&buf, label.A6, labels, label.PDFOptions{CreationDate: booked}); err != nil {
		return Document{}, err
	}
	return Document{ContentType: MediaPDF, Data: buf.Bytes(), ETag: documentTag(buf.Bytes())}, nil
}

func documentTag(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

package label

import "fmt"

// Size is a label stock.
type Size string

const (
	// A6 is 105 × 148 mm, the stock most Philippine couriers print on.
	A6 Size = "A6"
	// Size4x6 is 4 × 6 in (101.6 × 152.4 mm), the thermal printers' stock.
	Size4x6 Size = "4x6"
)

// ParseSize reads a size as the label routes name it ("A6", "4x6").
func ParseSize(s string) (Size, error) {
	switch Size(s) {
	case A6, Size4x6:
		return Size(s), nil
	}
	return "", fmt.Errorf("%w: size %q is not A6 or 4x6", ErrInvalid, s)
}

const pointsPerMM = 72 / 25.4

// millimetres is the stock's width and height.
func (s Size) millimetres() (w, h float64, err error) {
	switch s {
	case A6:
		return 105, 148, nil
	case Size4x6:
		return 101.6, 152.4, nil
	}
	return 0, 0, fmt.Errorf("%w: unknown size %q", ErrInvalid, string(s))
}

// points is the page size in PDF points.
func (s Size) points() (w, h float64, err error) {
	w, h, err = s.millimetres()
	return w * pointsPerMM, h * pointsPerMM, err
}

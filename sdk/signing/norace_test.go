//go:build !race

package signing

const raceEnabled = false

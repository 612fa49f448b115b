package channels

import (
	"fmt"
	"strconv"
)

// Tables are the channels compiled for quoting: zones resolved to a lookup
// by region, routes to a matrix, estimates to their text. Immutable once
// built, so one value serves every request; a reload builds a new one.
type Tables struct {
	channels []compiled
}

type compiled struct {
	ch *Channel
	// zoneOf is the channel's zone index by the region's two leading
	// digits (PSGC region codes are RR00000000), -1 outside its zones.
	zoneOf [100]int8
	zones  int
	// routes is zones×zones, from*zones+to; nil prices: not serviced.
	routes []compiledRoute
	sides  [3]int64 // MaxSidesCm, longest first
}

type compiledRoute struct {
	prices []int64
	days   string
}

// Build compiles checked channels (as Parse or Decode return them). It
// checks them again, so Tables never hold a channel Check refuses.
func Build(chs []Channel) (*Tables, error) {
	t := &Tables{channels: make([]compiled, 0, len(chs))}
	for i := range chs {
		c := chs[i]
		if err := Check(c); err != nil {
			return nil, err
		}
		if len(c.Zones) > 100 {
			return nil, fmt.Errorf("channels: channel %s: too many zones", c.ID)
		}
		cc := compiled{ch: &c, zones: len(c.Zones)}
		for j := range cc.zoneOf {
			cc.zoneOf[j] = -1
		}
		index := map[string]int{}
		for zi, z := range c.Zones {
			index[z.ID] = zi
			for _, code := range z.Regions {
				rr, _ := strconv.Atoi(code[:2])
				cc.zoneOf[rr] = int8(zi)
			}
		}
		cc.routes = make([]compiledRoute, cc.zones*cc.zones)
		for _, r := range c.Routes {
			cc.routes[index[r.From]*cc.zones+index[r.To]] = compiledRoute{
				prices: r.Prices,
				days:   strconv.Itoa(r.Days.Min) + "-" + strconv.Itoa(r.Days.Max),
			}
		}
		cc.sides = sortDesc(c.MaxSidesCm)
		t.channels = append(t.channels, cc)
	}
	return t, nil
}

// Channels returns the compiled channels, active or not, in the order
// given to Build. The values are shared: do not modify them.
func (t *Tables) Channels() []*Channel {
	out := make([]*Channel, len(t.channels))
	for i := range t.channels {
		out[i] = t.channels[i].ch
	}
	return out
}

// Channel finds a channel by id, active or not.
func (t *Tables) Channel(id string) (*Channel, bool) {
	for i := range t.channels {
		if t.channels[i].ch.ID == id {
			return t.channels[i].ch, true
		}
	}
	return nil, false
}

func sortDesc[T int64 | float64](s [3]T) [3]T {
	if s[0] < s[1] {
		s[0], s[1] = s[1], s[0]
	}
	if s[1] < s[2] {
		s[1], s[2] = s[2], s[1]
	}
	if s[0] < s[1] {
		s[0], s[1] = s[1], s[0]
	}
	return s
}

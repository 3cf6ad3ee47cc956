package toolbox

import "time"

// now reads p's clock, the system clock unless a test set another.
func (p *PingURL) now() time.Time {
	if p.clock != nil {
		return p.clock()
	}
	return time.Now()
}

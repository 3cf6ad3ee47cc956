package good

// notATool is a helper.
func notATool() {}

var _ = notATool

package toolbox

// diskStats is what statfs reports about the filesystem holding a path, in
// bytes.
type diskStats struct {
	// Total is the size of the filesystem.
	Total uint64
	// Free is the free space, including blocks reserved for the superuser.
	Free uint64
	// Avail is the free space an unprivileged user may use.
	Avail uint64
}

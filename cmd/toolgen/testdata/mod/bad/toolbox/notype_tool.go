package toolbox

type notExported struct{}

// Args has no methods.
type Args struct{}

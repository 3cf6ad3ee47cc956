package toolbox

func oops() int { return "not an int" }

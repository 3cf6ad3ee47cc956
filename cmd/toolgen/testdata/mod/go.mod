module example.com/tools

go 1.26.0

require (
	crypto/stdname v0.0.0
	dotless v0.0.0
	github.com/sashabaranov/go-openai v1.43.0
	github.com/toolreg/toolreg v0.0.0
	golang.org/x/sys/cpuhack v0.0.0
)

replace github.com/toolreg/toolreg => ../../../..

replace dotless => ./probes/dotless

replace crypto/stdname => ./probes/stdname

replace golang.org/x/sys/cpuhack => ./probes/syscpu

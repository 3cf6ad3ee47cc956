package toolsearch

import (
	"slices"
	"strings"
	"sync"
)

// relatedGroups are groups of words that people use for one another when
// they ask for a tool: a query word finds the others of its groups at
// relatedWeight. They are common English words of software, not the
// words of any tool set.
const relatedGroups = `
delete remove erase drop
create make new add
show list display view
fetch get retrieve download pull obtain
find search look lookup locate query
send post deliver
edit modify change update alter
start run launch begin trigger execute
stop halt kill terminate cancel end shut
folder directory dir
picture image photo
mail email e-mail
meeting event appointment
calendar schedule agenda
rename move
copy duplicate
size big large space
cost price worth value
forecast weather
translate translation language
repo repository
calculate compute math arithmetic
website site url web page link address
count number how-many
document doc
remind reminder notify notification alert
database db sql table
bucket storage
vm instance server machine host
bug issue ticket
user person people member account
save store write
open read load
up down online offline reachable alive status
date day today weekday tomorrow
time clock hour
history log
currency money dollar euro pound yen
unit measure mile kilometer meter fahrenheit celsius
pr pull
ci pipeline workflow
resize shrink smaller
contact phone
available free busy
terminal shell command console
mean meaning definition define
tag label
column field schema
`

// relatedTerms maps each term of relatedGroups to the other terms of its
// groups; it is made once, when first needed.
var relatedTerms = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(relatedGroups, "\n") {
		var group []string
		for _, w := range strings.Fields(line) {
			for _, t := range Tokens(w) {
				if !slices.Contains(group, t) {
					group = append(group, t)
				}
			}
		}
		for _, t := range group {
			for _, o := range group {
				if o != t && !slices.Contains(m[t], o) {
					m[t] = append(m[t], o)
				}
			}
		}
	}
	return m
})

// related returns the terms related to term t.
func related(t string) []string { return relatedTerms()[t] }

module golang.org/x/sys/cpuhack

go 1.22

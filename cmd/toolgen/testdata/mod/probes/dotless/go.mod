module dotless

go 1.22

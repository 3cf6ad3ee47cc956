module crypto/stdname

go 1.22

module truthgo

go 1.23

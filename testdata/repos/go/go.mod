module example.com/kvstore

go 1.19

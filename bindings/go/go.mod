module stride

go 1.19

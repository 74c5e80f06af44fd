module github.com/stride-tensor/stride/bindings/go

go 1.19

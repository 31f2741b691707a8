module thinker

go 1.24

require botarena.invalid/sdk v0.0.0

replace botarena.invalid/sdk => ../../../sdk/go

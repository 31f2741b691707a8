module botarena.invalid/sdk

go 1.24

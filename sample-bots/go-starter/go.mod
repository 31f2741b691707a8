module go-starter

go 1.24

require botarena.invalid/sdk v0.0.0

// The Bot Arena Go SDK, from this checkout (it is not published).
replace botarena.invalid/sdk => ../../sdk/go

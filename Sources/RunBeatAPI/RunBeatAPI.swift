// RunBeat's part of Juke's HTTP contract: the types, server stubs and client generated from the
// operations tagged "runbeat" in Sources/JukeAPI/openapi.yaml (this folder's openapi.yaml is a
// link to it), so the whole contract stays one file.

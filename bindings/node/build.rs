//! Sets up linking of the Node addon (napi-rs).

fn main() {
    napi_build::setup();
}
